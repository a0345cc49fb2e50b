// §9.9 && and || on bools
log(true && true)
log(true && false)
log(false && true)
log(false && false)
log(true || false)
log(false || true)
log(false || false)
log(true || true)
