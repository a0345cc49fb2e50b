// A pending timeout keeps the program alive after top-level code ends;
// the program then exits with status 0 (§12.2, §12.4).
void func later() {
    log('the timeout fired')
}
setTimeout(later, 30)
log('top-level code done')
