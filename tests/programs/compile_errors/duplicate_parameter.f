// expect: 3:19 parameter 'a' is already declared
// §6.7 two parameters with one name
int func f(a:int, a:int) {
    return a
}
