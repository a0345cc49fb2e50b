// §11.1 recursion a few thousand calls deep works
int func sumTo(n:int) {
    if n == 0 {
        return 0
    }
    return n + sumTo(n - 1)
}
log(sumTo(5000))
