// expect: 4:9 unknown name 'secret'
// §6.7 a function does not see its caller's locals
void func show() {
    log(secret)
}
void func caller() {
    int secret = 42
    show()
}
caller()
