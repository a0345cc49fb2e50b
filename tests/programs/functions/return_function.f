// §8.12 a function may return a function value
int func inc(n:int) {
    return n + 1
}
int func dec(n:int) {
    return n - 1
}
func[int]:int func pick(up:bool) {
    return up ? inc : dec
}
log(pick(true)(10))
func[int]:int f = pick(false)
log(f(10))
