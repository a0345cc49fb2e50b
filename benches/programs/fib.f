// Naive recursive Fibonacci: call and return cost.
int func fib(n:int) {
    if n < 2 {
        return n
    }
    return fib(n - 1) + fib(n - 2)
}
log(fib(32))
