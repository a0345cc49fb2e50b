// text.charCodeAt(i) over every position of a 409,600-character
// ASCII-only text (issue 10, item 5): O(1) per call.
text s = 'abcdefghijklmnopqrstuvwxy'
for int d = 0, d < 14, d++ {
    s = s + s
}
int n = s.length
int sum = 0
for int i = 0, i < n, i++ {
    sum = sum + s.charCodeAt(i)
}
log(`${n} ${sum}`)
