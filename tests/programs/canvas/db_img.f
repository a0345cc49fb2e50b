// img columns (§15.3): the image's own bytes are stored (a JPEG stays a
// JPEG, byte for byte), an image built by drawing is stored as PNG; rows
// and struct targets read them back as images.
DatabaseURL = ':memory:'
table Picture {
    name:text
    pic:img
}
struct Thumb {
    name:text
    pic:img
}
img photo = 'photo.jpg'
img drawn = blankImage(4, 3)
color red = 'red'
drawn.drawRect(0, 0, 2, 2, red)
sqlite('INSERT INTO Picture (name, pic) VALUES (?, ?)', ['photo', photo])
sqlite('INSERT INTO Picture (name, pic) VALUES (?, ?)', ['drawn', drawn])
sqlite('INSERT INTO Picture (name, pic) VALUES (?, ?)', ['none', null])
arr[Picture] rows = sqlite('SELECT * FROM Picture ORDER BY rowid')
log(`${rows[0].pic.width}x${rows[0].pic.height} ${rows[1].pic.width}x${rows[1].pic.height} ${rows[2].pic == null}`)
log(rows[1].pic.getPixelColor(1, 1) == red)
log(rows[1].pic.getPixelColor(3, 2) == null)
table Raw {
    data:blob
}
struct Head {
    kind:text
    size:int
}
arr[Head] heads = sqlite('SELECT hex(substr(pic, 1, 4)) AS kind, length(pic) AS size FROM Picture ORDER BY rowid')
blob original = 'photo.jpg'
log(`${heads[0].kind} ${heads[0].size == original.length} ${heads[1].kind}`)
arr[Thumb] thumbs = sqlite('SELECT name, pic FROM Picture WHERE name = ?', ['drawn'])
log(thumbs[0].pic.width)
sqlite('INSERT INTO Picture (name, pic) VALUES (?, ?)', ['junk', original])
sqlite("UPDATE Picture SET pic = x'00112233' WHERE name = 'junk'")
arr[Picture] junk = sqlite("SELECT * FROM Picture WHERE name = 'junk'")
log(junk[0].pic == null)
log(rows)
