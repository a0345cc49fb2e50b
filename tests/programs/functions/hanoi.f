// §11.1 recursion with text parameters and a global counter
int moves = 0
void func hanoi(n:int, from:text, to:text, via:text) {
    if n == 0 {
        return
    }
    hanoi(n - 1, from, via, to)
    log(`${from} -> ${to}`)
    moves++
    hanoi(n - 1, via, to, from)
}
hanoi(3, 'A', 'C', 'B')
log(moves)
