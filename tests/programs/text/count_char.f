// §8.4 comparing single code points from s[i]
int func count(s:text, c:text) {
    int n = 0
    for int i = 0, i < s.length, i++ {
        if s[i] == c {
            n++
        }
    }
    return n
}
log(count('banana', 'a'))
log(count('mississippi', 's'))
log(count('ééé', 'é'))
log(count('', 'x'))
