// §20.4, §20.2, §20.6: misuses of messages and lifecycle calls.
struct Loop { more: arr[Loop] }

thread quiet {
    on load() { }
}
thread echo {
    on message(w: thread, t: text) {
        w.reply(t.length)
    }
}
thread silent {
    on message(w: thread, n: int) {
        quiet.kill()
    }
}
thread pool[2] {
    on message(w: thread, n: int) { }
}
thread bad {
    on message(w: thread, r: regex) { }
}
thread cyclic {
    on message(w: thread, l: Loop) { }
}

quiet.postMessage(1)
echo.postMessage(5).callback(void (n: int) => log(n))
echo.postMessage('x')
echo.postMessage('y').callback(void (t: text) => log(t))
silent.postMessage(1).callback(void (n: int) => log(n))
postMessage('to nobody')
pool.kill()
pool[0].kill()
echo.restart()
