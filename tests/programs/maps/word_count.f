// §8.8 counting with a map; output order comes from a separate array
arr[text] words = ['the', 'cat', 'the', 'hat', 'the', 'cat']
map[int] counts = {}
arr[text] order = []
for int i = 0, i < words.length, i++ {
    text w = words[i]
    if counts[w] == null {
        counts[w] = 0
        order.push(w)
    }
    counts[w] = counts[w] + 1
}
for int i = 0, i < order.length, i++ {
    log(`${order[i]}: ${counts[order[i]]}`)
}
