// helper: calls a function that the importing program declares
int func twiceMain() {
    return mainValue() * 2
}
