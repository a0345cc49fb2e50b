void func f() { log(1) }
void func g() {
    log(1)
    log(2)
}
void func h() {
    log(1)
}
void func empty() {}
if true { if false { log(1) } }
for int i = 0, i < 10, i++ {
    if i == 4 { break }
    log(i)
}
{ log('block') }
while false {
    log('never')
}
