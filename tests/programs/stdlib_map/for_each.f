// §16.3 map.forEach(fn): fn(value, key) for every entry
map[int] ages = {'ann': 31, 'bob': 27}
ages['cy'] = 40
void func show(age:int, name:text) {
    log(`${name} is ${age}`)
}
ages.forEach(show)
int total = 0
void func add(age:int, name:text) {
    total = total + age
}
ages.forEach(add)
log(total)
map[int] counts = {'a': 1}
void func grow(v:int, k:text) {
    counts[`${k}${k}`] = v + 1
}
counts.forEach(grow)
log(counts)
map[text] empty = {}
void func never(v:text, k:text) {
    log('not called')
}
empty.forEach(never)
struct Box {
    n:int
}
Box b
map[Box] boxes = {'only': b}
void func bump(x:Box, k:text) {
    x.n = x.n + 1
}
boxes.forEach(bump)
boxes.forEach(bump)
log(b.n)
log('done')
