// §10.8 a bare return leaves a void function
void func check(n:int) {
    if n < 0 {
        log('negative')
        return
    }
    log(`ok ${n}`)
}
check(-1)
check(3)
