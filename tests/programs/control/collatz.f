// §10.5 while loops with computed conditions (the core language has no integer
// division, `/` always yields float, so halving counts up instead)
int func half(n:int) {
    int h = 0
    while h + h < n {
        h++
    }
    return h
}
int func steps(start:int) {
    int n = start
    int count = 0
    while n != 1 {
        if n % 2 == 0 {
            n = half(n)
        } else {
            n = 3 * n + 1
        }
        count++
    }
    return count
}
log(steps(1))
log(steps(6))
log(steps(27))
