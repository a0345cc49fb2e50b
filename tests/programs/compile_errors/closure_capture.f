// Festina has no closures (§11.1.4): a nested function or arrow function
// sees only globals, its own parameters and its own locals. Using a
// variable of an enclosing function says so, and what to do instead.
void func outer(limit:int) {
    int count = 0
    void func bump() {
        count++
        log(limit)
    }
    for int i = 0, i < 3, i++ {
        func[int]:int add = int (x:int) => x + i
        log(add(1))
    }
    bump()
}
{
    text greeting = 'hi'
    void func greet() {
        log(greeting)
    }
}
void func alone() {
    log(nothing)
}
outer(2)
