// A clip that has played to its end frees its channel; a loop never ends
// on its own. Without a sound card the null sink consumes the sound in
// real time, so the 0.25 s clip has finished long before the check and
// the 4 s one has not (§2.3, §18).
aud short = 'short.wav'
aud long = 'long.wav'
int once = short.play()
int loop = short.playLoop()
int slow = long.play()
log(`${once} ${loop} ${slow}`)
log(`${isAudioPlayerPlaying(once)} ${isAudioPlayerPlaying(loop)} ${isAudioPlayerPlaying(slow)}`)
setTimeout(check, 1500)

void func check() {
    log(`one-shot ${isAudioPlayerPlaying(once)}, loop ${isAudioPlayerPlaying(loop)}, long ${isAudioPlayerPlaying(slow)}`)
    log(`short ${short.isPlaying()}, long ${long.isPlaying()}`)
    // The freed channel is the lowest idle one again.
    log(short.play())
    stopAudioPlayer()
}
