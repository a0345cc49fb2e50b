// rowid is read-only (§9.11).
DatabaseURL = ':memory:'
table T {
    id:int
}
arr[T] ts = sqlite('SELECT rowid, id FROM T')
for int i = 0, i < ts.length, i++ {
    ts[i].rowid = 0
}
