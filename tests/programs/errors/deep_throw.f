// §10.10 unwinding through many recursive frames
int func dive(n:int) {
    if n == 0 {
        throw 'bottom'
    }
    return dive(n - 1) + 1
}
try {
    log(dive(100))
} catch (e:text) {
    log(`caught ${e}`)
}
log('continues')
