// A handler for an unknown event is accepted and never fires (§11.5).
// (Handlers of the nine window events open a window when the top-level
// code ends, §17.2: festina-cli/tests/window.rs tests them under Xvfb.)
on somethingElse(x:int, y:text) {
    log('never')
}
log('ran')
