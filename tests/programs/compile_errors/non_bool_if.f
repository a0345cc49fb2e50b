// expect: 4:4 condition must be bool, not int
// §10.4 an if condition must be bool (no truthiness)
int n = 1
if n {
    log('truthy?')
}
