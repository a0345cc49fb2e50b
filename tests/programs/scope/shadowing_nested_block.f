// §6.7 only redeclaring in the SAME scope is an error, so a nested block may
// declare a name its enclosing scope already has; the outer binding is untouched
int x = 1
if true {
    int x = 2
    log(x)
    if true {
        text x = 'three'
        log(x)
    }
    log(x)
}
log(x)
