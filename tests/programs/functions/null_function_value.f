// §8.12 null is a valid func value and compares with ==
func[]:void f
log(f == null)
void func hi() {
    log('hi')
}
f = hi
log(f != null)
f()
