// §9.9 && and || evaluate their right operand only when needed
bool func yes(tag:text) {
    log(`yes ${tag}`)
    return true
}
bool func no(tag:text) {
    log(`no ${tag}`)
    return false
}
log(no('a') && yes('b'))
log(yes('c') || no('d'))
log(yes('e') && no('f'))
log(no('g') || yes('h'))
