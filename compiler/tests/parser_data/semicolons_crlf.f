int a = 1; int b = 2;
log(a); log(b)
