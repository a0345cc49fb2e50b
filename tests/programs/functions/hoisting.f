// §6.6 functions are visible above their own declaration
log(square(7))
greet('early')
int func square(n:int) {
    return n * n
}
void func greet(who:text) {
    log(`hello ${who}`)
}
