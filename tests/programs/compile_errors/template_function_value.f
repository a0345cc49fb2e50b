// expect: 6:13 a value of type func[]:void has no text form
// §7.5.3 a substitution without a text form is an error
void func g() {
    log('g')
}
log(`g is ${g}`)
