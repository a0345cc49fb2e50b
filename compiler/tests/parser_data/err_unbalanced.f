}
int a = (1 + [2, 3)
log(a))
{ int b = 1
