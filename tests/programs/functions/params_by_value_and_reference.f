// §11.1.3 scalars are passed by value; structs and arrays are the caller's values
struct Box {
    n:int
}
void func bump(n:int, b:Box, xs:arr[int]) {
    n = n + 1
    b.n = b.n + 1
    xs.push(n)
}
int n = 1
Box b
arr[int] xs = []
bump(n, b, xs)
bump(n, b, xs)
log(n)
log(b.n)
log(xs)
