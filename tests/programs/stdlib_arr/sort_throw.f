// §13.7 a throw out of a sort comparator reaches the caller's try; the
// array is left a permutation of itself (here: unchanged)
int func picky(a:int, b:int) {
    if a == 3 || b == 3 {
        throw `cannot compare ${a} and ${b}`
    }
    return a - b
}
void func sortAll(ys:arr[int]) {
    ys.sort(picky)
    log('not reached')
}
arr[int] xs = [4, 3, 2, 1]
try {
    xs.sort(picky)
    log('not reached')
} catch (e:text) {
    log(e)
}
log(xs)
try {
    sortAll(xs)
} catch (e:text) {
    log(`again: ${e}`)
}
int sum = 0
for int i = 0, i < xs.length, i++ {
    sum = sum + xs[i]
}
log(sum)
xs.sort(int (a:int, b:int) => a - b)
log(xs)
