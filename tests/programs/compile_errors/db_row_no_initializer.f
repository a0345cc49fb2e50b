// A row binding needs an initializer (§8.10).
DatabaseURL = ':memory:'
table T {
    id:int
}
T t
