// §7.5.3 substitutions are arbitrary expressions, evaluated left to right
int func twice(n:int) {
    return n * 2
}
int counter = 0
int func next() {
    counter = counter + 1
    return counter
}
text s = 'héllo'
log(`${twice(21)} ${s.length} ${s[1]} ${1 + 2 * 3} ${7 / 2}`)
log(`${next()}-${next()}-${next()}`)
log(`${s == 'héllo'} ${!true}`)
