// A SQL error is a runtime failure naming SQLite's message, the SQL and
// the line; the failed statement changes nothing.
DatabaseURL = ':memory:'
table T {
    id:int
}
sqlite('CREATE UNIQUE INDEX t_id ON T (id)')
sqlite('INSERT INTO T (id) VALUES (1)')
log('before')
sqlite('INSERT INTO T (id) VALUES (?)', [1])
log('not reached')
