// expect: 6:10 'f' is already declared
// §11.1.2 duplicate function names
int func f() {
    return 1
}
int func f() {
    return 2
}
