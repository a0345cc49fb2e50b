// expect: 8:5 unknown name 'err'
// §6.7 a catch variable is scoped to the catch body
try {
    throw 'x'
} catch (err:text) {
    log(err)
}
log(err)
