// playLoop() reserves its channel: never picked or stolen by the pool;
// with the whole pool reserved an unnamed play goes above the limit, and
// with every channel reserved it is dropped (§18).
aud music = 'long.wav'
aud fx = 'short.wav'
setMaxAudioPlayers(2)
log(music.playLoop())
log(fx.play())
log(fx.play())
log(music.isPlaying())
log(fx.playLoop())
log(fx.play())
for int i = 2, i < 64, i++ {
    music.playLoop(i)
}
log(`${fx.play()} ${fx.playLoop()}`)
stopAudioPlayer(5)
log(fx.play())
// stop() silences the clip everywhere and releases its reservations.
music.stop()
log(`${music.isPlaying()} ${isAudioPlayerPlaying(0)} ${isAudioPlayerPlaying(63)}`)
log(fx.play())
stopAudioPlayer()
log(`${fx.isPlaying()} ${isAudioPlayerPlaying(1)} ${isAudioPlayerPlaying(5)}`)
