// expect: 6:5 function 'add' takes 2 arguments but 1 was given
// §9.4 arity is checked at compile time
int func add(a:int, b:int) {
    return a + b
}
log(add(1))
