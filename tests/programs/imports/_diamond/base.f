// helper: imported by both left.f and right.f
log('base')
int func baseValue() {
    return 7
}
