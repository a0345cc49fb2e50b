// The message round-trip benchmark's Festina side (benches/net/README.md):
// main sends N messages `{id, body}` to one thread, which replies with
// each; the reply callback runs on main.
//     festina roundtrip.f pingpong|burst [N]      (N defaults to 100000)
// pingpong: one message in flight, the next sent from the reply's
// callback; burst: all N posted at once, then every reply awaited.
// Replies must come back in order. Prints `round trips N, last id N-1`,
// then `loop_ms=…` (whole milliseconds from now()) on a line of its own:
// Festina writes stderr only through fail(), so run.py takes that line
// off stdout.
struct Message {
    id: int
    body: text
}

thread echo {
    on message(sender: thread, m: Message) {
        sender.reply(m)
    }
}

if argv.length < 2 || (argv[1] != 'pingpong' && argv[1] != 'burst') {
    fail('usage: roundtrip.f pingpong|burst [N]')
}
bool pingpong = argv[1] == 'pingpong'
int n = 100000
if argv.length > 2 {
    n = argv[2].toInt()
}
int received = 0
int last = -1
int start = now()

void func send(id: int) {
    Message m = {'id': id, 'body': 'hello'}
    echo.postMessage(m).callback(replied)
}

void func replied(m: Message) {
    if m.id != received {
        fail(`reply ${m.id} out of order (expected ${received})`)
    }
    last = m.id
    received = received + 1
    if received == n {
        int elapsed = now() - start
        log(`round trips ${n}, last id ${last}`)
        log(`loop_ms=${elapsed}`)
    } else if pingpong {
        send(received)
    }
}

if pingpong {
    send(0)
} else {
    for int i = 0, i < n, i++ {
        send(i)
    }
}
