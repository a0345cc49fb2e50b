// At most one handler per event (§11.5).
on exit(code:int) {
    log(code)
}
on exit(other:int) {
    log(other)
}
