// §10.10 when nothing is thrown the catch body does not run
try {
    log('fine')
} catch (e:text) {
    log('never')
}
log('after')
