// expect: 6:5 a value of type func[]:int has no text form
// §8.21 a func has no text form
int func f() {
    return 1
}
log(f)
