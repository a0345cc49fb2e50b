// expect: 4:5 function 'f' must return a value of type int
// §10.8 a non-void function must return a value
int func f() {
    return
}
