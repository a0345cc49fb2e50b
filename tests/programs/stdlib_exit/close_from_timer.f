// close() from a timer callback runs on exit and ends the event loop.
on exit(code:int) {
    log(`on exit ${code}`)
}
void func stop() {
    log('stopping')
    close(7)
}
void func never() { log('never') }
setTimeout(stop, 5)
setInterval(never, 1000)
