// §7.1 carriage return is whitespace: a file with CRLF line endings runs unchanged
int total = 0
for int i = 1, i <= 4, i++ {
    total = total + i
}
log(total)
log('done')
