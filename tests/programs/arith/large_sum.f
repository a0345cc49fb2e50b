// §8.3 64-bit ints: summing 1..100000 needs more than 32 bits
int sum = 0
for int i = 1, i <= 100000, i++ {
    sum = sum + i
}
log(sum)
log(sum * 1000)
