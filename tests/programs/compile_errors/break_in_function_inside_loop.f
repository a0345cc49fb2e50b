// expect: 4:5 'break' outside a loop
// §10.7 a loop in the caller does not make break valid in a function
void func f() {
    break
}
for int i = 0, i < 3, i++ {
    f()
}
