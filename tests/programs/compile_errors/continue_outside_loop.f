// expect: 4:5 'continue' outside a loop
// §10.7 continue outside a loop
void func f() {
    continue
}
