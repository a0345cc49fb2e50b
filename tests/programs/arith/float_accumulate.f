// §8.3 float is IEEE 754 binary64: ten additions of 0.1 are not exactly 1
float sum = 0.0
for int i = 0, i < 10, i++ {
    sum = sum + 0.1
}
log(sum)
log(sum == 1.0)
log(sum < 1.0)
log(0.5 + 0.25 == 0.75)
