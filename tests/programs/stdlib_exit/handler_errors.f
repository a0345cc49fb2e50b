// Handler declarations are checked (§11.5).
on exit(code:text) {
}
on keyDown(k:text) {
}
on keyDown(k:text) {
}
on mouseDown(x:int, y:int) {
}
on load() {
}
void func f() {
    on resize() {
    }
}
on close() {
    return 5
}
