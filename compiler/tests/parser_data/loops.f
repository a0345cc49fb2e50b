int total = 0
for int i = 0, i < 10, i++ {
    if i % 2 == 0 { continue }
    total = total + i
}
while total > 0 {
    total--
    if total == 3 { break }
}
for int j = 10, j > 0, j-- { log(j) }
