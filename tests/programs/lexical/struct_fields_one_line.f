// §8.9.1 struct fields may share a line, separated by whitespace
struct Point { x:int  y:int }
Point p
p.x = 3
p.y = 4
log(p)
