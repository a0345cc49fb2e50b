// Outside `festina test` (an ordinary run, and `festina compile`) test
// groups and assertions are checked, then dropped: no code, no report;
// an assertion used as a value is true and its operands are not
// evaluated.
int calls = 0
int func count() {
    calls++
    return calls
}
log('hi')
test t = 'x'
t(1, 1)
t(count(), 99)
t.near(1.0, 5.0, 0.1)
bool ok = t(count(), 2)
log(ok)
log(calls)
