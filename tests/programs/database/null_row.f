// Reading a column through a null row is a runtime failure.
DatabaseURL = ':memory:'
table T {
    id:int
    name:text
}
T t = null
log(t == null)
log(t.name)
