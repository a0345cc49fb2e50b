// §6.7 a function body sees globals, including one declared textually below it
void func show() {
    log(`limit is ${limit}`)
}
int limit = 10
show()
