// expect: 3:11 'close' is a built-in name and cannot be redeclared
// §11.1.2 a function may not take the name of a built-in function
void func close(code:int) {
    log(code)
}
