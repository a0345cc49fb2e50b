// One call runs one statement: a second one is refused, not run.
DatabaseURL = ':memory:'
table T {
    id:int
}
sqlite('INSERT INTO T (id) VALUES (1); DROP TABLE T')
