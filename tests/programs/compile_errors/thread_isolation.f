// §20.3: a thread body sees only its own state and functions, and may
// not use timers, close, or the canvas, window and audio builtins.
int shared = 1
int func helper() { return 2 }
void func tick() { }

thread worker {
    int mine = 0
    on message(sender: thread, n: int) {
        mine = shared + n
        shared = 3
        mine = helper()
        setTimeout(tick, 10)
        close(0)
        drawRect(0, 0, 1, 1)
        sender.reply(mine)
    }
    on click() { }
    log('not a member')
}
