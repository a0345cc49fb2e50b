// A throw caught inside a callback does not end the program.
void func careful() {
    try {
        throw 'inner'
    } catch (e:text) {
        log(`caught ${e}`)
    }
}
setTimeout(careful, 1)
