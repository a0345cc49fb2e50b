// What an assertion compares, and how a failure shows the actual value.
test nums = 'numbers'
nums(7, 7)
nums(1.5, 1.5)
nums(2, 2.0)
nums(0.1 + 0.2, 0.3)
nums(10 / 4, 2)
test nulls = 'nulls'
int unset = null
nulls(unset, null)
nulls(5, null)
text nothing
nulls(nothing, null)
nulls('', null)
test strings = 'strings'
ascii code = 'ABC'
strings(code, 'ABC')
strings(`${code}!`, 'ABC')
strings(code,
    'ABD')
test floats = 'floats'
floats.near(0.1 + 0.2, 0.3, 0.0001)
floats.near(1.0, 2.0, 0.5)
floats.near(3, 3.25, 0.5)
// An assertion is a bool expression.
bool ok = nums(1, 1)
log(ok)
if !nums(1, 2) {
    log('branched on a failed assertion')
}
// Groups may be declared in functions; each run registers one group.
void func check(n:int) {
    test inner = `inner ${n}`
    inner(n % 2, 0)
}
check(2)
check(3)
// The description is any text expression.
text what = 'math'
test described = `described ${what}`
described(1, 1)
