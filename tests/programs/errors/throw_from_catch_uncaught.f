// §10.10 a throw from a catch body with no outer try ends the program
try {
    throw 'first'
} catch (e:text) {
    log(`handling ${e}`)
    throw `could not handle ${e}`
}
log('never')
