// §13.1 text values created and dropped every iteration
int total = 0
for int i = 0, i < 100000, i++ {
    text t = `item-${i}`
    total = total + t.length
}
log(total)
