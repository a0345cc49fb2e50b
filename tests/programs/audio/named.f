// A named channel is always taken over, reserved or not; play(n) also
// releases a reservation; numbers are clamped into [0, 64) and the limit
// only bounds what the pool picks on its own (§18).
aud music = 'long.wav'
aud battle = 'long.wav'
log(music.playLoop(0))
log(battle.playLoop(0))
log(`${music.isPlaying()} ${battle.isPlaying()}`)
log(music.play(0))
log(battle.isPlaying())
setMaxAudioPlayers(1)
log(battle.play())
log(music.isPlaying())
log(music.play(40))
log(`${music.play(-5)} ${music.play(64)} ${music.play(1000000)}`)
log(`${isAudioPlayerPlaying(-1)} ${isAudioPlayerPlaying(99)} ${isAudioPlayerPlaying(40)}`)
stopAudioPlayer(-7)
stopAudioPlayer(700)
log(`${isAudioPlayerPlaying(0)} ${isAudioPlayerPlaying(63)} ${isAudioPlayerPlaying(40)}`)
setMaxAudioPlayers(0)
log(maxAudioPlayers())
setMaxAudioPlayers(65)
log(maxAudioPlayers())
setMaxAudioPlayers(-3)
log(maxAudioPlayers())
stopAudioPlayer()
