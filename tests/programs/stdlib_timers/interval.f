// An interval ticks until it is cleared; once nothing is pending the
// program exits 0 (§12.2, §12.4).
int ticks = 0
int id = 0

void func tick() {
    ticks++
    log(`tick ${ticks}`)
    if ticks == 3 {
        clearInterval(id)
        log('cleared')
    }
}

id = setInterval(tick, 15)
log(id > 0)
