// §10.7 break leaves the nearest enclosing loop immediately
for int i = 0, i < 10, i++ {
    if i == 3 {
        break
    }
    log(i)
}
int n = 0
while true {
    n = n + 1
    if n >= 5 {
        break
    }
}
log(n)
