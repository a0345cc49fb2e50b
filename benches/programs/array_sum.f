// 2,000,000 fresh 8-element arrays, each summed by index.
int total = 0
for int i = 0, i < 2000000, i++ {
    arr[int] a = [i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7]
    for int j = 0, j < a.length, j++ {
        total = total + a[j]
    }
}
log(total)
