// §16.4 nesting deeper than 1000 levels throws
struct Node {
    v:int
    next:Node
}
text func nested(levels:int) {
    text open = ''
    text closing = ''
    for int i = 0, i < levels, i++ {
        open = open + '{"v": 1, "next": '
        closing = closing + '}'
    }
    return `${open}null${closing}`
}
Node deep = nested(1000).toStruct(Node)
int count = 1
Node cur = deep
while cur.next != null {
    count++
    cur = cur.next
}
log(count)
try {
    Node tooDeep = nested(1001).toStruct(Node)
    log('not reached')
} catch (e:text) {
    log(e)
}
text brackets = ''
for int i = 0, i < 1001, i++ {
    brackets = brackets + '['
}
try {
    Node junk = `{"v": ${brackets}`.toStruct(Node)
} catch (e:text) {
    log(e)
}
text huge = ''
for int i = 0, i < 200000, i++ {
    huge = huge + '['
}
try {
    arr[int] xs = huge.toArr(int)
} catch (e:text) {
    log(e)
}
arr[arr[int]] ok = '[[1], [2, 3]]'.toArr(arr[int])
log(ok)
