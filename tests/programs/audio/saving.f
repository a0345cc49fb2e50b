// An aud saves its own encoded bytes (§16.6): save(path) adopts the path
// when the write lands, saveCopy(path) keeps it, a directory is false.
aud clip = 'short.wav'
log(clip.saveCopy('.'))
log(clip.save('saved.tmp'))
log(clip.save())
aud again = 'saved.tmp'
log(again.play())
stopAudioPlayer()
blob b = 'saved.tmp'
log(b.length)
log(b.delete())
