// expect: 5:5 'x' is already declared in this scope
// §6.7 redeclaring a name in the same scope is an error
int x = 1
log(x)
int x = 2
