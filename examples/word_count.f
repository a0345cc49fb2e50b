// word_count.f: the most frequent words of a text file.
//
// Reads the file into a blob (§8.6), splits its text into words with a
// regex (§8.15), counts them in a map (§8.8) and sorts the distinct words
// by count, ties alphabetically (§16.3).
//
//     festina word_count.f [file] [how-many]
//
// With no arguments it reads word_count.txt from the current directory
// (run it from examples/) and shows the top 10.

text path = 'word_count.txt'
if argv.length > 1 {
    path = argv[1]
}
int top = 10
if argv.length > 2 {
    top = argv[2].toInt()
}

blob file = path
if !file.exists() {
    fail(`cannot read '${path}'`)
}

// Words are compared case-insensitively: fold ASCII capitals.
text func lower(w:text) {
    text out = ''
    for int i = 0, i < w.length, i++ {
        int c = w.charCodeAt(i)
        if c >= 65 && c <= 90 {
            c = c + 32
        }
        out = out + c.toChar()
    }
    return out
}

// Alphabetical order of two words (text has no '<', §9.8).
int func alphabetical(a:text, b:text) {
    for int i = 0, i < a.length && i < b.length, i++ {
        int d = a.charCodeAt(i) - b.charCodeAt(i)
        if d != 0 {
            return d
        }
    }
    return a.length - b.length
}

map[int] counts = {}
int total = 0
arr[text] words = file.toText().split(/[^A-Za-z']+/)
for int i = 0, i < words.length, i++ {
    text w = lower(words[i])
    if w.length == 0 {
        continue
    }
    total++
    if counts[w] == null {
        counts[w] = 0
    }
    counts[w] = counts[w] + 1
}

// Most frequent first; equal counts alphabetically.
int func byCount(a:text, b:text) {
    int d = counts[b] - counts[a]
    if d != 0 {
        return d
    }
    return alphabetical(a, b)
}

arr[text] distinct = counts.keys()
distinct.sort(byCount)

text func padded(s:text, width:int) {
    text out = s
    while out.length < width {
        out = out + ' '
    }
    return out
}

log(`${path}: ${file.length} bytes, ${total} words, ${distinct.length} distinct`)
for int i = 0, i < top && i < distinct.length, i++ {
    text w = distinct[i]
    log(`${padded(w, 12)} ${counts[w]}`)
}
