// §6.7 a catch variable is scoped to its catch body, so the name can be reused
try {
    throw 'one'
} catch (e:text) {
    log(e)
}
try {
    throw 'two'
} catch (e:text) {
    log(e)
}
text e = 'three'
log(e)
