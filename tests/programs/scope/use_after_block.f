// expect: 6:5 unknown name 'inner'
// §6.7 a block variable is not visible after its block
if true {
    int inner = 1
}
log(inner)
