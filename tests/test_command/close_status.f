// close(code) ends the program; the report still follows, and the status
// is the program's own.
on exit(code:int) {
    log(`exiting ${code}`)
}
test t = 'closing'
t(1, 1)
close(3)
