// A comparison of two call results used as a branch condition, where the
// calls take managed arguments: the branch compares the results, not the
// registers the arguments were released from.
int x = 3
text s = 'abc'
if x.toText().length != x.toText().length {
    log('wrong: int compare')
} else {
    log('int compare')
}
if s.trim().length == s.trim().length {
    log('int equality')
}
if s.replace('a', 'b').length < s.replace('a', 'bb').length {
    log('int less')
}
float f = 2.5
if f.toText().length.toFloat() >= f.toText().length.toFloat() {
    log('float compare')
}
bool same = s.trim() == s.trim()
if s.trim().length != s.length || !same {
    log('wrong: or')
} else {
    log('or')
}
for int i = 0, i < 2, i++ {
    if i.toText().length != i.toText().length {
        log('wrong: in a loop')
    }
}
log('done')
