// latin-1, not UTF-8
int x = 1 // µs
