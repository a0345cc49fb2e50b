// Two statements on one line separated only by blanks are accepted, as
// the reference compiler accepts them (`{ end = i break }`).
int end = 0
for int i = 0, i < 10, i++ { if i == 4 { end = i break } }
log(end)
struct P { x:int y:int }
P func make(v:int) { P p  p.x = v  p.y = v * 2  return p }
P q = make(3)  log(q.x)  log(q.y)
int n = 0  while n < 3 { n++ }  log(n)
