// expect: 3:9 x is already declared in this scope (the body shares the parameters scope, §6.7)
void func f(x:int) {
    int x = 2
    log(x)
}
f(1)
