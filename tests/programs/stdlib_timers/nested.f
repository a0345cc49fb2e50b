// Callbacks may arm further timers; the program lives until the last one
// has fired (§12.2).
int round = 0
void func step() {
    round++
    log(`round ${round}`)
    if round < 4 {
        setTimeout(step, 5)
    }
}
setTimeout(step, 0)
