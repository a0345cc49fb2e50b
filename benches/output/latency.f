// Twenty lines, each logged with the time it was logged (ms since the
// epoch) and followed by about 100 ms of computation without any output:
// the runner notes when each line reaches it (benches/output/run.py).
for int k = 0, k < 20, k++ {
    log(`${now()}`)
    int start = now()
    int spin = 0
    while now() - start < 100 {
        spin = spin + 1
    }
}
