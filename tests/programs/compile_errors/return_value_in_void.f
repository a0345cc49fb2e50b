// expect: 4:5 void function 'f' cannot return a value
// §10.8 a void function may not return a value
void func f() {
    return 1
}
