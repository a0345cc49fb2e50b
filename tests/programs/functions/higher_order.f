// §11.1.4 functions passed as arguments
int func apply(f:func[int]:int, x:int) {
    return f(x)
}
int func applyTwice(f:func[int]:int, x:int) {
    return f(f(x))
}
int func square(n:int) {
    return n * n
}
arr[int] func mapAll(xs:arr[int], f:func[int]:int) {
    arr[int] out = []
    for int i = 0, i < xs.length, i++ {
        out.push(f(xs[i]))
    }
    return out
}
log(apply(square, 5))
log(applyTwice(square, 3))
log(mapAll([1, 2, 3], square))
