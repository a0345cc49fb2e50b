// §10.10 break and continue may leave a catch body
int func check(n:int) {
    if n % 3 == 0 {
        throw `bad ${n}`
    }
    return n
}
int total = 0
for int i = 1, i <= 7, i++ {
    try {
        total = total + check(i)
    } catch (e:text) {
        log(e)
        if i == 6 {
            break
        }
        continue
    }
    log(`ok ${i}`)
}
log(total)
