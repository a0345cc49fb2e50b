// Clips decode once at their declaration, sniffed from the bytes (§8.13):
// 16-bit PCM WAV (mono and stereo) and MP3. A null clip plays nothing.
aud mono = 'short.wav'
aud stereo = 'stereo.wav'
aud mp3 = '../../audio/tone.mp3'
log(`${mono.isPlaying()} ${stereo.isPlaying()} ${mp3.isPlaying()}`)
log(`${mono.play()} ${stereo.play()} ${mp3.play()}`)
log(`${mono.isPlaying()} ${stereo.isPlaying()} ${mp3.isPlaying()}`)
stopAudioPlayer()
log(`${mono.isPlaying()} ${stereo.isPlaying()} ${mp3.isPlaying()}`)

aud none = null
log(`${none.play()} ${none.playLoop(3)} ${none.isPlaying()}`)
none.stop()
log(isAudioPlayerPlaying(3))
