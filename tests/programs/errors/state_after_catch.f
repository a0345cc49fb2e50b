// §10.10 effects made before the throw remain; locals of unwound frames are gone
int steps = 0
arr[text] trail = []
void func work(n:int) {
    steps++
    trail.push(`enter ${n}`)
    if n == 2 {
        throw 'stop'
    }
    work(n + 1)
    trail.push('never')
}
try {
    work(0)
} catch (e:text) {
    log(e)
}
log(steps)
log(trail)
