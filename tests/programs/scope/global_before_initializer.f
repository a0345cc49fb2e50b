// §6.6 variables are not hoisted: a call that runs before a global's declaration
// statement sees the global's zero value
show()
int limit = 10
show()
void func show() {
    log(limit)
}
