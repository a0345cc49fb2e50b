// Freeing the last reference to a clip stops it, and ends the
// reservation its loop held (§18, §13.1).
int func startLoop() {
    aud local = 'long.wav'
    return local.playLoop()
}
int ch = startLoop()
log(`${ch} ${isAudioPlayerPlaying(ch)}`)

aud a = 'long.wav'
aud b = a
a.playLoop(3)
free a
log(`alias alive: ${isAudioPlayerPlaying(3)} ${b.isPlaying()}`)
free b
log(`last reference freed: ${isAudioPlayerPlaying(3)}`)

aud c = 'long.wav'
c.play(5)
c = 'short.wav'
log(`reassigned: ${isAudioPlayerPlaying(5)}`)
c.play(6)
clear c
log(`cleared: ${isAudioPlayerPlaying(6)}`)
