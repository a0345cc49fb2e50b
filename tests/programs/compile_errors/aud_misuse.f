// An aud has no text form (§8.21), is declared from a path (§8.13), and
// its methods take what §18 says.
aud clip = 'x.wav'
log(clip)
text t = `${clip}`
aud n = 5
int ch = clip.play('one')
clip.playLoop(1, 2)
bool b = clip.stop()
setMaxAudioPlayers('many')
int m = stopAudioPlayer(1)
