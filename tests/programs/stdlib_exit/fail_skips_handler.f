// A runtime failure exits with status 1 without running on exit.
on exit(code:int) {
    log('not printed')
}
log('about to fail')
fail('stopped')
