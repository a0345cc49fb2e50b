int acc = 0
for int i = 0, i < 2000000, i++ {
    acc = acc + (i & 7) + (i | 3) + (i ^ 5)
}
log(acc)
