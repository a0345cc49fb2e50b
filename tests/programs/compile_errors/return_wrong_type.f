// expect: 4:12 cannot assign value of type text to int (return type of 'f')
// §10.8 the returned value must be assignable to the return type
int func f() {
    return 'x'
}
