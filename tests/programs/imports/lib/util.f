// helper for the imports tests (not a test itself): a struct, a function,
// a global and top-level code
log('util loaded')
struct Pair {
    a:int
    b:int
}
int func add(x:int, y:int) {
    return x + y
}
int utilCounter = 10
