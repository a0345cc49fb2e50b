// aud columns store the clip's own encoded bytes and read back as clips
// (§15.3); bytes that do not decode read as null (§2.3).
DatabaseURL = ':memory:'

table Music {
    name:text
    file:aud
}

struct Track {
    name:text
    file:aud
}

bool func sameBytes(x:blob, y:blob) {
    if x.length != y.length {
        return false
    }
    for int i = 0, i < x.length, i++ {
        if x.byteAt(i) != y.byteAt(i) {
            return false
        }
    }
    return true
}

aud theme = 'stereo.wav'
aud tone = '../../audio/tone.mp3'
sqlite('INSERT INTO Music (name, file) VALUES (?, ?)', ['theme', theme])
sqlite('INSERT INTO Music (name, file) VALUES (?, ?)', ['tone', tone])
sqlite('INSERT INTO Music (name, file) VALUES (?, ?)', ['nothing', null])
sqlite("INSERT INTO Music (name, file) VALUES ('junk', X'00010203')")
arr[Music] rows = sqlite('SELECT * FROM Music ORDER BY rowid')
log(rows.length)
log(`${rows[0].file == null} ${rows[1].file == null} ${rows[2].file == null} ${rows[3].file == null}`)
log(rows[0].file.playLoop(0))
log(rows[1].file.play())
log(`${rows[0].file.isPlaying()} ${theme.isPlaying()}`)
stopAudioPlayer()

// Byte for byte: what was stored is the file.
blob saved = 'roundtrip.tmp'
log(rows[1].file.saveCopy('roundtrip.tmp'))
blob original = '../../audio/tone.mp3'
blob copy = 'roundtrip.tmp'
log(sameBytes(original, copy))
log(saved.delete())

arr[Track] tracks = sqlite('SELECT name, file FROM Music WHERE name = ?', ['theme'])
log(`${tracks[0].name} ${tracks[0].file.play()}`)
log(tracks)
