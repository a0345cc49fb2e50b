// startsWith, endsWith; ASCII-only case conversion (every other
// character unchanged); repeat (a count of 0 or less gives empty).
text s = 'Hello'
log(s.startsWith('Hell'))
log(s.startsWith('hell'))
log(s.endsWith('llo'))
log(s.endsWith('Hello!'))
log(s.startsWith(''))
log(s.endsWith(''))
text w = 'Héllo, Wörld 42'
log(w.toLowerCase())
log(w.toUpperCase())
log('ab'.repeat(3))
log('ab'.repeat(1))
log('ab'.repeat(0) == '')
log('ab'.repeat(0 - 5) == '')
// The methods compose: code-point indexes throughout.
text path = '/Some/Dir/File.TXT'
text ext = path.slice(path.indexOf('.') + 1, path.length)
log(ext.toLowerCase())
log(path.toLowerCase().endsWith('.txt'))
log('-'.repeat(ext.length))
