// §6.7 a for loop's variable is scoped to the loop, so the name can be reused
int total = 0
for int i = 0, i < 3, i++ {
    total = total + i
}
for int i = 10, i < 12, i++ {
    total = total + i
}
int i = 100
log(total + i)
