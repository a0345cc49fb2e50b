// §9.13 ! binds tightest, then &&, then ||
log(true || false && false)
log((true || false) && false)
log(!false && false)
log(!(false && false))
log(false && false || true)
