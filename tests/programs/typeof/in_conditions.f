// §9.6 typeof yields text, compared like any text
int n = 3
if typeof n == 'int' {
    log('n is an int')
}
text kind = typeof (n * 1.0)
log(kind == 'float')
log(typeof typeof n)
