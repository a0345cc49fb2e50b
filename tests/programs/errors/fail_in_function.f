// §14.2 fail deep inside calls ends the whole program at once
void func validate(n:int) {
    if n < 0 {
        fail(`negative input: ${n}`)
    }
    log(`valid ${n}`)
}
validate(1)
validate(-2)
validate(3)
