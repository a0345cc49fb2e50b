// §10.10 a catch body may throw again, to an outer try
void func risky() {
    throw 'original'
}
try {
    try {
        risky()
    } catch (e:text) {
        log(`inner caught ${e}`)
        throw `wrapped(${e})`
    }
} catch (e:text) {
    log(`outer caught ${e}`)
}
