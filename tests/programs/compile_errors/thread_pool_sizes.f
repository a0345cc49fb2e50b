// A pool size must be 1 or more and fit in 32 bits (§20.6).
thread none[0] {
}
thread huge[99999999999999999999] {
}
