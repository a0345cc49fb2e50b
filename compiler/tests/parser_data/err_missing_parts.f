int func (a:int) { }
void func f( { }
while x
log(1)
for i = 0, i < 3 { }
func g() { }
try { }
