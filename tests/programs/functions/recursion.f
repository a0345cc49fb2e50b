// §11.1 recursive functions
int func fact(n:int) {
    if n <= 1 { return 1 }
    return n * fact(n - 1)
}
int func fib(n:int) {
    if n < 2 { return n }
    return fib(n - 1) + fib(n - 2)
}
log(fact(10))
log(fact(20))
log(fib(20))
