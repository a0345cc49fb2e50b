// A negative delay counts as 0; an enormous one is accepted (and here
// cleared before it could fire); an interval of 0 ms still ticks.
int huge = 0
int fast = 0
int ticks = 0

void func never() { log('never') }
void func negative() {
    log('negative delay ran')
    clearTimeout(huge)
}
void func zero() {
    ticks++
    if ticks == 3 {
        clearInterval(fast)
        log('zero-period interval ticked 3 times')
    }
}

huge = setTimeout(never, 9223372036854775807)
setTimeout(negative, -5)
fast = setInterval(zero, 0)
setInterval(never, -9223372036854775807 - 1)
clearInterval(fast + 1)
