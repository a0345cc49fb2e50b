// 1,000,000 log lines of about 24 bytes: the throughput of `log` into a
// file or a pipe (benches/output/run.py).
for int i = 0, i < 1000000, i++ {
    log(`line ${i} of the output`)
}
