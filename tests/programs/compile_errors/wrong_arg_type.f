// expect: 6:12 cannot assign value of type text to int (argument 2 of 'add')
// §9.4 each argument must be assignable to its parameter
int func add(a:int, b:int) {
    return a + b
}
log(add(1, 'two'))
