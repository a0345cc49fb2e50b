// §6.7 a function's local may share a global's name; assignment without a
// declaration updates the global
int count = 5
int func localCount() {
    int count = 1
    return count
}
void func setGlobal() {
    count = 9
}
log(localCount())
log(count)
setGlobal()
log(count)
