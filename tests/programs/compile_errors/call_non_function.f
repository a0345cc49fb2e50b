// expect: 4:5 a value of type int cannot be called
// §9.4 only functions can be called
int n = 5
log(n(1))
