// clearTimeout and clearInterval cancel a timer and are interchangeable;
// unknown ids are ignored (§12.4).
void func never() { log('this never runs') }
void func once() { log('once') }

int t1 = setTimeout(never, 10)
int t2 = setInterval(never, 10)
int t3 = setTimeout(once, 20)
log(t1 != t2 && t2 != t3 && t1 != t3)
clearTimeout(t1)
clearTimeout(t2)
clearInterval(12345)
clearTimeout(-1)
log('cleared two')

// A timeout cleared by an earlier callback of the same round does not run.
int victim = 0
void func killer() {
    log('killer runs')
    clearTimeout(victim)
}
setTimeout(killer, 40)
victim = setTimeout(never, 40)
