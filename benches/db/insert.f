// The database benchmark (benches/db/run.sh): 20,000 single-row INSERTs
// through sqlite() in a loop, then one SELECT of every row into an
// arr[Entry]. Prints "<insert ms> <select ms> <rows>". Run it in an
// empty directory: it uses festina.sqlite there. `argv[1]` overrides the
// number of rows.
table Entry {
    id:int
    name:text
    score:float
}

int n = 20000
if argv.length > 1 {
    n = argv[1].toInt()
}
sqlite('DELETE FROM Entry')
int t0 = now()
for int i = 0, i < n, i++ {
    sqlite('INSERT INTO Entry (id, name, score) VALUES (?, ?, ?)', [i, `name ${i}`, i * 0.5])
}
int t1 = now()
arr[Entry] rows = sqlite('SELECT * FROM Entry')
int t2 = now()
log(`${t1 - t0} ${t2 - t1} ${rows.length}`)
