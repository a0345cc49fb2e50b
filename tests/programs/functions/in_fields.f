// §8.12 a function value in a struct field, called through the field
struct Button {
    label:text
    onClick:func[text]:void
}
void func report(label:text) {
    log(`clicked ${label}`)
}
Button b
b.label = 'OK'
b.onClick = report
b.onClick(b.label)
Button c
log(c.onClick == null)
