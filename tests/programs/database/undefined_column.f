// undefined() with a column the table does not declare is a runtime
// failure (§15.5, §14.2).
DatabaseURL = ':memory:'
table T {
    id:int
}
sqlite('INSERT INTO T (id) VALUES (1)')
arr[T] ts = sqlite('SELECT id FROM T')
log(ts[0].undefined('id'))
log(ts[0].undefined('nmae'))
