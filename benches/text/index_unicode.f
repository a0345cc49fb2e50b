// s[i] over every position, in order, of a 102,400-character text that is
// not ASCII-only: amortized O(1) per step through the text's code-point
// cursor (O(1) on ASCII-only text already).
text s = 'abcdefghijklmnopqrstuvéx€'
for int d = 0, d < 12, d++ {
    s = s + s
}
int n = s.length
int count = 0
for int i = 0, i < n, i++ {
    if s[i] == 'é' {
        count++
    }
}
log(`${n} ${count}`)
