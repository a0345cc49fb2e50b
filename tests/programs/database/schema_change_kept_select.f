// A kept `SELECT *` statement after its table changed: its columns are
// those of the table as it is now (added, dropped, reordered columns).
DatabaseURL = ':memory:'

struct R {
    a:int
    b:text
    c:int
}

void func show(when:text) {
    arr[R] rs = sqlite('SELECT * FROM t')
    log(`${when}: ${rs}`)
}

sqlite('CREATE TABLE t (a INTEGER, b TEXT)')
sqlite('INSERT INTO t VALUES (1, ?)', ['one'])
show('first')
sqlite('ALTER TABLE t ADD COLUMN c INTEGER DEFAULT 7')
show('column added')
sqlite('ALTER TABLE t DROP COLUMN b')
show('column dropped')
sqlite('DROP TABLE t')
sqlite('CREATE TABLE t (c INTEGER, b TEXT, a INTEGER)')
sqlite('INSERT INTO t VALUES (3, ?, 41)', ['two'])
show('columns reordered')
