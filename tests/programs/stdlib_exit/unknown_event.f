// A handler for an unknown event is accepted and never fires (§11.5);
// known events that cannot occur in this program never fire either.
on somethingElse(x:int, y:text) {
    log('never')
}
on keyDown(key:text) {
    log('never')
}
on resize() {
    log('never')
}
log('ran')
