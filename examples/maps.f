// maps.f: map[T] associates text keys with values of one type T.
map[int] stock = {'apples': 3}
stock['pears'] = 5                     // add a key
stock['apples'] = stock['apples'] + 2  // replace a value

log(stock['apples'])
log(stock['kiwis'])  // a missing key reads as null

if stock['kiwis'] == null {
    log('no kiwis')
}

delete stock['pears']
log(stock)

// Map iteration order is unspecified, so to report in a fixed order, keep
// the keys in an array as they are first seen.
arr[text] words = ['to', 'be', 'or', 'not', 'to', 'be']
map[int] counts = {}
arr[text] seen = []
for int i = 0, i < words.length, i++ {
    text w = words[i]
    if counts[w] == null {
        counts[w] = 0
        seen.push(w)
    }
    counts[w] = counts[w] + 1
}
for int i = 0, i < seen.length, i++ {
    log(`${seen[i]}: ${counts[seen[i]]}`)
}

// `{ name }` is shorthand for {'name': name}.
text name = 'Festina'
map[text] info = {name}
log(info)
