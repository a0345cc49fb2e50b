// §11.1.2 functions may be mutually recursive
bool func isEven(n:int) {
    if n == 0 { return true }
    return isOdd(n - 1)
}
bool func isOdd(n:int) {
    if n == 0 { return false }
    return isEven(n - 1)
}
log(isEven(10))
log(isOdd(7))
log(isEven(7))
