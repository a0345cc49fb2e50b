// close() inside on exit exits at once with its own code; the handler does
// not run again.
int runs = 0
on exit(code:int) {
    runs++
    log(`on exit ${code}, run ${runs}`)
    close(9)
    log('not reached')
}
close(2)
