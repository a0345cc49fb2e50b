// §11.1.2 a function declared inside another function is an ordinary global function
void func outer() {
    log('outer runs')
    int func inner(n:int) {
        return n + 100
    }
    log(inner(1))
}
log(inner(2))
outer()
