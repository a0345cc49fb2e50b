// Overlapping play() calls layer on the lowest idle channels (§18); the
// pool holds 10 channels until setMaxAudioPlayers changes it.
aud long = 'long.wav'
log(maxAudioPlayers())
log(`${long.play()} ${long.play()} ${long.play()}`)
log(`${isAudioPlayerPlaying(0)} ${isAudioPlayerPlaying(2)} ${isAudioPlayerPlaying(3)}`)
stopAudioPlayer(1)
log(`${isAudioPlayerPlaying(1)} ${long.isPlaying()}`)
log(long.play())
log(long.play())
stopAudioPlayer()
log(`${long.isPlaying()} ${isAudioPlayerPlaying(0)}`)
