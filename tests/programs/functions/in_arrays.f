// §8.12 function values stored in an array and called through an element
int func inc(n:int) {
    return n + 1
}
int func dbl(n:int) {
    return n * 2
}
arr[func[int]:int] pipeline = [inc, dbl, int (n:int) => n - 3]
int v = 5
for int i = 0, i < pipeline.length, i++ {
    v = pipeline[i](v)
}
log(v)
log(pipeline[1](21))
