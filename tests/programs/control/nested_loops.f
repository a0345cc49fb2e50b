// §10.6 nested loops; break and continue act on the innermost loop only
for int i = 1, i <= 3, i++ {
    text row = ''
    for int j = 1, j <= 3, j++ {
        if j == 2 {
            continue
        }
        if i == 3 {
            break
        }
        row = row + `${i * j} `
    }
    log(`row ${i}: ${row}`)
}
