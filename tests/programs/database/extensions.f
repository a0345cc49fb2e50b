// SQL is passed through untouched: JSON1 and FTS5 are available (§15.4),
// and so are transactions.
DatabaseURL = ':memory:'

table Doc {
    title:text
    body:text
}

struct One {
    v:text
}
arr[One] j = sqlite("SELECT json_extract('{\"a\":{\"b\":[1,2,3]}}', '$.a.b[2]') AS v")
log(j[0].v)
arr[One] list = sqlite("SELECT json_group_array(value) AS v FROM json_each('[3,1,2]')")
log(list[0].v)

sqlite('CREATE VIRTUAL TABLE docs USING fts5(title, body)')
sqlite('INSERT INTO docs (title, body) VALUES (?, ?)', ['Festina', 'a statically typed language'])
sqlite('INSERT INTO docs (title, body) VALUES (?, ?)', ['SQLite', 'a small fast database engine'])
arr[Doc] found = sqlite('SELECT title, body FROM docs WHERE docs MATCH ? ORDER BY rank', ['database'])
log(found)

sqlite('BEGIN')
sqlite('INSERT INTO Doc (title) VALUES (?)', ['kept'])
sqlite('COMMIT')
sqlite('BEGIN')
sqlite('INSERT INTO Doc (title) VALUES (?)', ['rolled back'])
sqlite('ROLLBACK')
arr[Doc] docs = sqlite('SELECT title FROM Doc')
log(docs)
