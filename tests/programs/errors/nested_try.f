// §10.10 the nearest enclosing try catches; outer code continues afterwards
try {
    try {
        throw 'first'
    } catch (e:text) {
        log(`inner: ${e}`)
    }
    log('between')
    throw 'second'
} catch (e:text) {
    log(`outer: ${e}`)
}
