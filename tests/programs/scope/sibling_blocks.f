// §6.7 a variable is visible to the end of its block; sibling blocks may reuse a name
if true {
    int x = 1
    log(x)
}
if true {
    text x = 'two'
    log(x)
}
while true {
    bool x = true
    log(x)
    break
}
