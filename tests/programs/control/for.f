// §10.6 for: declaration, condition, update separated by commas
for int i = 0, i < 3, i++ {
    log(i)
}
for int i = 10, i > 0, i = i - 4 {
    log(i)
}
for int i = 0, i < 0, i++ {
    log('never')
}
