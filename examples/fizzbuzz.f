// fizzbuzz.f: the classic exercise.
// `for` takes three comma-separated clauses (declaration, condition, update)
// with no parentheses; conditions must be bool, and braces are required.
for int i = 1, i <= 15, i++ {
    if i % 15 == 0 {
        log('FizzBuzz')
    } else if i % 3 == 0 {
        log('Fizz')
    } else if i % 5 == 0 {
        log('Buzz')
    } else {
        log(i)
    }
}
