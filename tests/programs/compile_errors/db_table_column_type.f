// Table columns must be queryable types (§8.10).
DatabaseURL = ':memory:'
table T {
    id:int
    tags:map[text]
}
