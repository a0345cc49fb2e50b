// §10.10 throw transfers control to the catch; the rest of the try body is skipped
try {
    log('in try')
    throw 'boom'
    log('never')
} catch (e:text) {
    log(`caught ${e}`)
}
log('after')
