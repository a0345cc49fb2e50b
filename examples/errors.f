// errors.f: try/catch/throw.

// `throw` renders any value as text and unwinds to the nearest enclosing
// `catch`, through any number of calls.
int func parseDigit(c:text) {
    text digits = '0123456789'
    for int i = 0, i < digits.length, i++ {
        if digits[i] == c {
            return i
        }
    }
    throw `not a digit: '${c}'`
}

int func parseNumber(s:text) {
    if s.length == 0 {
        throw 'empty input'
    }
    int n = 0
    for int i = 0, i < s.length, i++ {
        n = n * 10 + parseDigit(s[i])
    }
    return n
}

arr[text] inputs = ['42', '7x', '', '1000']
for int i = 0, i < inputs.length, i++ {
    try {
        int n = parseNumber(inputs[i])
        log(`${inputs[i]} -> ${n}`)
    } catch (e:text) {
        // the catch variable is always text
        log(`error: ${e}`)
    }
}

// A thrown struct arrives as its JSON text.
struct Problem {
    code:int
    reason:text
}
try {
    Problem p = {'code': 404, 'reason': 'missing'}
    throw p
} catch (e:text) {
    log(e)
}

// Division by zero is not an error in Festina: it yields null.
int zero = 0
log(10 / zero)

// fail('message'), or a throw that nothing catches, ends the program: it
// prints `fail: message` on stderr and exits with status 1.
log('done')
