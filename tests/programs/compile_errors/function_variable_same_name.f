// expect: 6:5 'total' is already declared
// §6.7 functions and variables share the value namespace
int func total() {
    return 1
}
int total = 2
