// A throw out of a forEach callback reaches the caller's try (§10.10)
map[int] m = {'a': 1, 'b': 2, 'c': 3}
void func check(v:int, k:text) {
    log(`visit ${k}`)
    if v == 2 {
        throw `bad entry ${k}`
    }
}
try {
    m.forEach(check)
} catch (e:text) {
    log(e)
}
log(m)
