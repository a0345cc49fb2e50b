// A small drum machine (§18): kick, snare and hi-hat on a 16-step
// pattern, stepped by setInterval, over a bass drone that loops on its
// own reserved channel. Hits go to channels the pool picks; a hit that
// rings into the next step layers with it instead of being cut off.
//
//     festina drums.f [bpm] [bars]
//
// Without a sound card it runs all the same, silently (the null sink).
// To play it from the keyboard in a window, see drum_pads.f.

aud kick = 'sounds/kick.wav'
aud snare = 'sounds/snare.wav'
aud hat = 'sounds/hat.wav'
aud drone = 'sounds/drone.wav'

text kicks = 'x.....x...x.....'
text snares = '....x.......x..x'
text hats = 'x.x.x.x.x.x.x.xx'

int bpm = 120
int bars = 2
if argv.length > 1 {
    bpm = argv[1].toInt()
}
if argv.length > 2 {
    bars = argv[2].toInt()
}
if bpm == null || bpm < 30 || bpm > 300 || bars == null || bars < 1 {
    fail('usage: festina drums.f [bpm 30-300] [bars]')
}

// Four sixteenth notes per beat.
int stepMs = Math.floorDiv(60000, bpm * 4)
int step = 0
int timer = 0
text bar = ''

// The drone takes channel 0 and reserves it; the pool of 4 picks the
// hits' channels from the other three.
setMaxAudioPlayers(4)
int droneChannel = drone.playLoop(0)
log(`${bpm} bpm, ${bars} bars, a step every ${stepMs} ms; drone on channel ${droneChannel}`)
timer = setInterval(tick, stepMs)

// One step: play what the pattern says and note it.
void func tick() {
    int i = step % 16
    text hit = '-'
    if hats[i] == 'x' {
        hat.play()
        hit = 'h'
    }
    if snares[i] == 'x' {
        snare.play()
        hit = 'S'
    }
    if kicks[i] == 'x' {
        kick.play()
        hit = 'K'
    }
    bar = bar + hit
    step++
    if i == 15 {
        log(`bar ${Math.floorDiv(step, 16)}: ${bar}`)
        bar = ''
    }
    if step == bars * 16 {
        clearInterval(timer)
        stopAudioPlayer()
        log(`drone playing: ${drone.isPlaying()}`)
    }
}
