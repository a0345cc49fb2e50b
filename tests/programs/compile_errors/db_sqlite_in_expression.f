// sqlite() is a statement or a declaration's initializer, nothing else (§15.4).
DatabaseURL = ':memory:'
log(sqlite('SELECT 1'))
