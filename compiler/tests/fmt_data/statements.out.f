int n = 0
while n < 3 { n++ }
log(n)
log(1)
log(2)
int a = 1
int b = 2

log(a + b)
ascii pre = 'x';
-a
