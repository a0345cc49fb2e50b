// Threads that all idle do not keep the program alive: it ends when
// main's work ends, after every thread's on exit(0) (§20.2).
thread a {
    on exit(code: int) {
        log(`a exit ${code}`)
    }
}
thread b[2] {
    on load() {
    }
}
log('main done')
