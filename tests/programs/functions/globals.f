// §6.7 function bodies see and update global variables
int counter = 0
void func tick() {
    counter = counter + 1
}
int func current() {
    return counter
}
tick(); tick(); tick()
log(current())
