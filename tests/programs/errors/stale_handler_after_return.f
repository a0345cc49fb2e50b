// §10.10 a try left by return is no longer active: a later throw is not caught by it
int func early() {
    try {
        return 1
    } catch (e:text) {
        log('stale handler ran')
    }
    return 0
}
log(early())
try {
    throw 'fresh'
} catch (e:text) {
    log(`fresh handler: ${e}`)
}
log(early())
throw 'uncaught at the end'
