// Imported by imports.f: a table declared in an imported file, and a
// DatabaseURL that has no effect here (§6.4).
DatabaseURL = 'never_created.sqlite'

table Stock {
    item:text
    qty:int
}

void func restock(item:text, qty:int) {
    sqlite('INSERT INTO Stock (item, qty) VALUES (?, ?)', [item, qty])
}

restock('bolts', 10)
