// `test` is a contextual word: only `test NAME = ...` declares a group.
// A variable, parameter or field may be called `test`, and regex's
// `.test()` is unchanged.
int test = 5
log(`${test}`)
test = 6
log(test)
int func f(test:int) {
    return test + 1
}
log(`${f(1)}`)
regex d = /[0-9]+/
log(`${d.test('a1')}`)
struct Holder {
    test:int
}
Holder h
h.test = 1
log(`${h.test}`)
