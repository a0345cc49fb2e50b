// on exit fires for close() and handled signals only: not when the
// program simply ends (status 0).
on exit(code:int) {
    log('not printed')
}
log('the end')
