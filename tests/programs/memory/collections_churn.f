// §13.1 arrays and maps created and dropped every iteration
int total = 0
for int i = 0, i < 200000, i++ {
    arr[int] xs = [i, i + 1]
    map[int] m = {'k': i}
    total = total + xs.length + m['k'] - i
}
log(total)
