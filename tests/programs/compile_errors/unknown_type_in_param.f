// expect: 3:18 unknown type 'Widget'
// §8.19 an unknown type in a parameter
void func show(x:Widget) {
    log('x')
}
