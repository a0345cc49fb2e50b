// §10.6 a sieve with nested loops and an arr[bool]
arr[bool] composite = []
for int i = 0, i <= 50, i++ {
    composite.push(false)
}
arr[int] primes = []
for int i = 2, i <= 50, i++ {
    if composite[i] {
        continue
    }
    primes.push(i)
    for int j = i * i, j <= 50, j = j + i {
        composite[j] = true
    }
}
log(primes)
log(primes.length)
