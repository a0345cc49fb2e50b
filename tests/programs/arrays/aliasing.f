// §8.7 an array is one reference-counted value: assignment aliases
void func grow(xs:arr[int]) {
    xs.push(100)
}
arr[int] a = [1]
arr[int] b = a
b.push(2)
log(a)
a[0] = 9
log(b)
grow(a)
log(b.length)
