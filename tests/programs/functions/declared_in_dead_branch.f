// §6.6 a function declared in a branch that never runs is still declared
if false {
    int func hidden(n:int) {
        return n * 3
    }
}
log(hidden(5))
