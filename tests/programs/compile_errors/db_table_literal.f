// A table row has no literal form (§8.10).
DatabaseURL = ':memory:'
table T {
    id:int
}
T t = {'id': 1}
