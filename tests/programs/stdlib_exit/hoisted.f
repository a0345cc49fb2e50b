// Handlers are hoisted: registered before any top-level statement runs
// (§6.6, §11.5), so a close() above the declaration still runs it.
close(4)

on exit(code:int) {
    log(`handler declared below, code ${code}`)
}
