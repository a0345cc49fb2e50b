// The Festina side of the audio latency benchmark (README.md):
//     FESTINA_AUDIO_SINK=null FESTINA_AUDIO_TRACE=trace.txt festina latency.f CLICK RUNS
// opens the output, lets it run for 0.5 s, then plays CLICK (whose first
// sample is not zero) RUNS times, 300 ms apart, and reads the runtime's
// audio trace: for each play, when play() ran and when the output pulled
// the clip's first non-zero sample, in time and in stream frames. Prints
//     latency_ms wall <min> <median> stream <min> <median>

aud click = argv[1]
int runs = argv[2].toInt()
text trace = environment.FESTINA_AUDIO_TRACE
if trace == null || runs == null || runs < 1 {
    fail('usage: FESTINA_AUDIO_SINK=null FESTINA_AUDIO_TRACE=trace.txt festina latency.f CLICK RUNS')
}
// The null sink's rate, for frames to milliseconds.
float rate = 44100.0
int played = 0
int ticker = 0

// The first play opens the output; it is stopped at once and not measured.
click.play()
stopAudioPlayer()
setTimeout(start, 500)

void func start() {
    ticker = setInterval(tick, 300)
}

void func tick() {
    stopAudioPlayer()
    if played == runs {
        clearInterval(ticker)
        report()
        return
    }
    click.play()
    played++
}

float func median(xs:arr[float]) {
    xs.sort(int (a:float, b:float) => a < b ? -1 : (a > b ? 1 : 0))
    int mid = Math.floorDiv(xs.length, 2)
    return xs.length % 2 == 1 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2
}

// `play <id> channel <n> at <µs> pos <frames>` and
// `sound <id> at <µs> pos <frames>`, by id.
void func report() {
    blob lines = trace
    map[int] playAt = {}
    map[int] playPos = {}
    arr[float] wall = []
    arr[float] stream = []
    arr[text] all = lines.toText().split('\n')
    for int i = 0, i < all.length, i++ {
        arr[text] w = all[i].split(' ')
        if w.length == 8 && w[0] == 'play' {
            playAt[w[1]] = w[5].toInt()
            playPos[w[1]] = w[7].toInt()
        }
        if w.length == 6 && w[0] == 'sound' && playAt[w[1]] != null && w[1] != '1' {
            wall.push((w[3].toInt() - playAt[w[1]]) / 1000)
            stream.push((w[5].toInt() - playPos[w[1]]) / rate * 1000)
        }
    }
    if wall.length != runs {
        fail(`expected ${runs} measured plays in ${trace}, found ${wall.length}`)
    }
    float w0 = median(wall)
    float s0 = median(stream)
    log(`latency_ms wall ${wall[0]} ${w0} stream ${stream[0]} ${s0}`)
}
