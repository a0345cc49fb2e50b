// §9.5 a for loop counting down with --
text s = ''
for int i = 5, i > 0, i-- {
    s = `${s}${i}`
}
log(s)
