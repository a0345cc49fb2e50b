// Loop conditions that compare a temporary's result with a global.
int limit = 3
arr[int] xs = [0, 1, 2, 3, 4, 5]
text word = 'abcdef'
void func probe() {
    int i = 0
    while xs[i] < limit {
        i++
    }
    log(i)
    int j = 0
    while word.charCodeAt(j) != 100 {
        j++
    }
    log(j)
    int n = 0
    for int k = 0, xs[k] <= limit, k++ {
        n = n + 1
    }
    log(n)
}
probe()
