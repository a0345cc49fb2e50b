// §14.2 fail is not a throw: a surrounding try does not catch it
try {
    log('in try')
    fail('not catchable')
} catch (e:text) {
    log('never')
}
log('never either')
