// expect: 6:5 unknown name 'i'
// §6.7 a for loop variable is scoped to the loop
for int i = 0, i < 3, i++ {
    log(i)
}
log(i)
