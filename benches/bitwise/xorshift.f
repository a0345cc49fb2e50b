int h = 0x12345
int acc = 0
for int i = 0, i < 2000000, i++ {
    h = h ^ (h << 13)
    h = h ^ (h >> 7)
    h = h ^ (h << 17)
    acc = acc + (h & 0xFF)
}
log(acc)
