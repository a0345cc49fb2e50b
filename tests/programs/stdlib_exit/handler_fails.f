// A throw escaping on exit ends the program like fail (§10.10).
on exit(code:int) {
    log(`on exit ${code}`)
    throw 'from the exit handler'
}
close(5)
