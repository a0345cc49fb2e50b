// A C-style for header gets one error showing the Festina form, built
// from the program's own parts (§10.6): no parentheses, commas between
// the parts.
arr[int] xs = [1, 2, 3]
for (int i = 0; i < xs.length; i++) {
    log(xs[i])
}
for int j = 0; j < 3; j++ {
    log(j)
}
for (int k = 0, k < 2, k++) {
    log(k)
}
