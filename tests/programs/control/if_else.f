// §10.4 if/else with bool conditions
int x = 10
if x > 5 {
    log('greater')
} else {
    log('not greater')
}
if x < 5 {
    log('less')
} else {
    log('not less')
}
if x == 10 {
    log('ten')
}
if x != 10 {
    log('never')
}
