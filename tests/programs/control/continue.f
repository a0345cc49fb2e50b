// §10.7 continue skips to the next iteration; in a for loop the update still runs
for int i = 0, i < 6, i++ {
    if i % 2 == 0 {
        continue
    }
    log(i)
}
int j = 0
while j < 5 {
    j = j + 1
    if j == 3 {
        continue
    }
    log(`j=${j}`)
}
