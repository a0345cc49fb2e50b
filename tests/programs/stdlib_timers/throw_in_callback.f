// A throw escaping a timer callback ends the program like fail (§10.10);
// timers still pending never fire.
void func boom() {
    log('boom runs')
    throw 'thrown from a timer'
}
void func after() { log('never printed') }
setTimeout(boom, 5)
setTimeout(after, 50)
