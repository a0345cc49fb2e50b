// §10.10 an uncaught throw from inside calls renders like fail: here an int
void func inner() {
    throw 7
}
void func outer() {
    inner()
    log('never')
}
log('calling')
outer()
