// Code-point positions of a text that is not ASCII-only, visited forwards,
// backwards and out of order (§8.4): charCodeAt and s[i] agree with each
// other whatever the order (the text caches its last position).
text s = 'aé😀b€x'
for int i = 0, i < s.length, i++ {
    log(`${i} ${s[i]} ${s.charCodeAt(i)}`)
}
for int i = s.length - 1, i >= 0, i-- {
    log(`${i} ${s[i]} ${s.charCodeAt(i)}`)
}
arr[int] order = [4, 1, 5, 0, 3, 2, 6, -1]
for int k = 0, k < order.length, k++ {
    int i = order[k]
    log(`${i} ${s[i] == null} ${s.charCodeAt(i)}`)
}
s = s + 'ü'
log(`${s[6]} ${s.charCodeAt(6)} ${s.length}`)
