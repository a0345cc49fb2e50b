// §11.1 every call has its own locals
int func f(n:int) {
    int local = n * 10
    if n > 0 {
        f(n - 1)
    }
    return local
}
log(f(3))
