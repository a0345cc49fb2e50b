// §10.10 a throw reaches the nearest dynamically enclosing catch through any calls
void func level3(n:int) {
    if n > 2 {
        throw `too big: ${n}`
    }
    log(`level3 ok ${n}`)
}
void func level2(n:int) {
    level3(n + 1)
    log('level2 after')
}
void func level1(n:int) {
    level2(n + 1)
    log('level1 after')
}
try {
    level1(0)
    level1(1)
    log('not reached')
} catch (e:text) {
    log(`caught: ${e}`)
}
