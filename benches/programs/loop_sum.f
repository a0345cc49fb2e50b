// A counted loop around 64-bit multiply, add and modulo.
int total = 0
for int i = 0, i < 100000000, i++ {
    total = (total * 1000003 + i) % 1000000007
}
log(total)
