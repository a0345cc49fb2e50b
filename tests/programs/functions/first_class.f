// §8.12 a bare function name is a value of type func[...]:R
int func double(n:int) {
    return n * 2
}
int func inc(n:int) {
    return n + 1
}
func[int]:int f = double
log(f(4))
f = inc
log(f(4))
func[int]:int g = f
log(g(10))
