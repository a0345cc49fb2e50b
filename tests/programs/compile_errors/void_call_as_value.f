// expect: 6:9 'hello' returns nothing (void) and cannot be used as a value
// §9.4 a void call may not be used as a value
void func hello() {
    log('hi')
}
int x = hello()
