// `festina test` prints the program's own output, then one line per test
// group (truncated percentages, no fail count for a clean group, each
// failure quoting its source and the actual value), then Overall; the
// exit status is non-zero because an assertion failed.
log('hello')
test basicMath = 'basic math test'
basicMath(2 + 2, 4)
basicMath(3 - 1, 2)
basicMath(2 - 2, 4)

test stringInterpolation = 'string interpolation'
text name = 'Patrick'
text greeting = `Hello, ${name}!`
stringInterpolation(greeting, 'Hello, Patrick!')
log('during')
