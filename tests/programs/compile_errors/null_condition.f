// expect: 3:4 condition must be bool, not null
// §8.2 null is not a bool and never a condition
if null {
    log('?')
}
