// text.charCodeAt(i) over every position, in order, of a 102,400-character
// text that is not ASCII-only (one 'é' and one '€' in every 25 characters):
// amortized O(1) per call through the text's code-point cursor.
text s = 'abcdefghijklmnopqrstuvéx€'
for int d = 0, d < 12, d++ {
    s = s + s
}
int n = s.length
int sum = 0
for int i = 0, i < n, i++ {
    sum = sum + s.charCodeAt(i)
}
log(`${n} ${sum}`)
