// §7.5.4 true and false are bool
log(true)
log(false)
bool b = true
log(b)
log(typeof false)
