// §9.1.5 an arrow may be passed directly as an argument
int func apply(f:func[int]:int, x:int) {
    return f(x)
}
log(apply(int (n:int) => n * 10, 4))
log(apply(int (n:int) => n - 1, 0))
