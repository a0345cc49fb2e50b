// §10.4 parentheses around a condition are ordinary grouping and optional
bool a = false
bool b = true
bool c = false
if (a || b) && c {
    log('grouped: yes')
} else {
    log('grouped: no')
}
if (a || b) {
    log('parenthesized')
}
if a || b && c {
    log('never')
} else {
    log('ungrouped: no')
}
