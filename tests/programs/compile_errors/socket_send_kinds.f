void func f() {
}
on upgrade(s:socket) {
    s.send(f)
    s.send(s)
    s.state = {}
}
