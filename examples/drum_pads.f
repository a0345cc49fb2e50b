// golden: skip
// (It needs a display: festina-cli/tests/window.rs plays it under Xvfb.)
// drum_pads.f: the drum machine of drums.f played from the keyboard, in
// a window (§17, §18). K, S and H hit the kick, snare and hi-hat pads
// at once; Space starts and stops the 16-step pattern (stepped by
// setInterval); Up and Down change the tempo by 10 bpm; Escape quits.
// The window shows the pattern, the step playing and the pads lit by
// the last hit.
//
//     festina examples/drum_pads.f
//
// Without a sound card it runs all the same, silently (the null sink).

aud kick = 'sounds/kick.wav'
aud snare = 'sounds/snare.wav'
aud hat = 'sounds/hat.wav'

color back = '#263238'
color off = '#455a64'
color lamp = '#ffca28'
color current = '#80cbc4'
color ink = 'white'
font label = 'bold 18px sans-serif'

text kicks = 'x.....x...x.....'
text snares = '....x.......x..x'
text hats = 'x.x.x.x.x.x.x.xx'

int bpm = 120
int step = 0
int timer = 0
bool playing = false
text lit = ''

setClientWidth(16 * 30 + 20)
setClientHeight(200)
setMaxAudioPlayers(6)

void func hit(name:text) {
    int ch = -1
    if name == 'kick' { ch = kick.play() }
    if name == 'snare' { ch = snare.play() }
    if name == 'hat' { ch = hat.play() }
    lit = name
    log(`${name} on channel ${ch}`)
    draw()
}

void func row(pattern:text, y:int) {
    for int i = 0, i < 16, i++ {
        color c = off
        if pattern[i] == 'x' {
            c = lamp
        }
        if playing && i == (step + 15) % 16 {
            c = current
        }
        drawRect(10 + i * 30, y, 26, 26, c)
    }
}

void func draw() {
    drawRect(0, 0, clientWidth, clientHeight, back)
    row(hats, 20)
    row(snares, 60)
    row(kicks, 100)
    changeFont(label)
    fillStyle(ink)
    text state = 'stopped'
    if playing {
        state = 'playing'
    }
    drawText(`${bpm} bpm, ${state}, last hit: ${lit}`, 10, 170)
    render()
}

void func tick() {
    int i = step % 16
    if hats[i] == 'x' { hat.play() }
    if snares[i] == 'x' { snare.play() }
    if kicks[i] == 'x' { kick.play() }
    step++
    draw()
}

void func restartTimer() {
    if playing {
        clearInterval(timer)
        timer = setInterval(tick, Math.floorDiv(60000, bpm * 4))
    }
}

on keyDown(key:text) {
    if key == 'k' { hit('kick') }
    if key == 's' { hit('snare') }
    if key == 'h' { hit('hat') }
    if key == 'Up' && bpm < 300 {
        bpm = bpm + 10
        log(`${bpm} bpm`)
        restartTimer()
        draw()
    }
    if key == 'Down' && bpm > 40 {
        bpm = bpm - 10
        log(`${bpm} bpm`)
        restartTimer()
        draw()
    }
}

on keyUp(key:text) {
    if key == ' ' {
        playing = !playing
        if playing {
            step = 0
            timer = setInterval(tick, Math.floorDiv(60000, bpm * 4))
            log('playing')
        } else {
            clearInterval(timer)
            log(`stopped after ${step} steps`)
        }
        draw()
    }
    if key == 'Escape' {
        close(0)
    }
}

draw()
log('ready')
