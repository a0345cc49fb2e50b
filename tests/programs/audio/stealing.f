// When every unreserved channel of the pool is busy, the one whose sound
// started first is stolen (§18).
aud long = 'long.wav'
setMaxAudioPlayers(3)
log(maxAudioPlayers())
log(`${long.play()} ${long.play()} ${long.play()}`)
log(`${long.play()} ${long.play()} ${long.play()} ${long.play()}`)

// A steal silences the clip that was on the channel.
stopAudioPlayer()
setMaxAudioPlayers(2)
aud first = 'long.wav'
aud second = 'long.wav'
log(`${first.play()} ${second.play()}`)
log(second.play())
log(`${first.isPlaying()} ${second.isPlaying()}`)
