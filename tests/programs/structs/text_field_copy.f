// §13.2 a text field holds its own copy of the text
struct Label {
    s:text
}
text t = 'a'
Label l
l.s = t
t = 'b'
log(l.s)
log(t)
