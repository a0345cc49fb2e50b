// close(code) runs the top-level on exit handler with the same code, then
// exits with it (§12.3).
on exit(code:int) {
    log(`on exit: ${code}`)
}
log('before close')
close(3)
log('not reached')
