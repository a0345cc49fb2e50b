// §9.6 ! requires a bool
log(!true)
log(!false)
log(!!true)
log(!(1 > 2))
bool done = false
if !done {
    log('not done')
}
