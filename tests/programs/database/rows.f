// Tables, queries into arr[Table] and arr[Struct], partial selects,
// rowid, undefined(), assignment and delete on rows (§15.4-§15.6).
DatabaseURL = ':memory:'

table People {
    id:int
    name:text
    score:float
    active:bool
}

struct Summary {
    total:int
    best:text
    avg:float
}

sqlite('INSERT INTO People (id, name, score, active) VALUES (?, ?, ?, ?)', [1, 'Ann', 3.5, true])
sqlite('INSERT INTO People (id, name, score, active) VALUES (?, ?, ?, ?)', [2, 'Bob', 2.25, false])
sqlite('INSERT INTO People (id, name, score, active) VALUES (?, ?, ?, ?)', [3, 'Cy', null, null])

arr[People] all = sqlite('SELECT * FROM People ORDER BY id')
log(all.length)
log(all)
log(all[0].name)
log(`${all[1].name} has ${all[1].score}`)
log(all[2].active == null)
log(typeof all[0])

// SELECT * does not fill rowid (§15.5); selecting it does.
log(all[0].rowid == null)
arr[People] withIds = sqlite('SELECT rowid, id FROM People ORDER BY id DESC')
log(withIds[0].rowid)
log(withIds)

// Columns match by name, ignoring case, in any order; unselected ones
// read null and are undefined; a NULL from the database is defined.
arr[People] partial = sqlite('SELECT NAME, Id FROM People WHERE id = ?', [3])
People p = partial[0]
log(p)
log(p.score)
log(p.undefined('score'))
log(p.undefined('name'))
log(p.undefined('NAME'))
arr[People] nulls = sqlite('SELECT score FROM People WHERE id = 3')
log(nulls[0].undefined('score'))
log(nulls)

// Assigning a column defines it; delete makes it undefined again.
p.score = 9.5
log(p.undefined('score'))
log(p)
delete p.name
log(p.undefined('name'))
log(p.name == null)
log(p)

// Rows alias and outlive their array (§15.6).
People q = p
q.id = 30
log(p.id)
free partial
log(q)

// A query that matches nothing yields an empty array.
arr[People] none = sqlite('SELECT * FROM People WHERE id > 100')
log(none.length)
log(none)

// Struct targets: fields by name (alias columns), absent ones null.
arr[Summary] s = sqlite('SELECT count(*) AS total, max(name) AS best FROM People')
log(s)
log(s[0].total)
log(s[0].avg)

// Rows as parameters, results, elements and fields.
text func describe(r:People) {
    return `#${r.id} ${r.name}`
}
People func best(rows:arr[People]) {
    People top = rows[0]
    for int i = 1, i < rows.length, i++ {
        if rows[i].score > top.score {
            top = rows[i]
        }
    }
    return top
}
struct Holder {
    row:People
}
log(describe(best(all)))
Holder h = {'row': all[1]}
log(h.row.name)
map[People] byName = {}
for int i = 0, i < all.length, i++ {
    byName[all[i].name] = all[i]
}
log(byName['Cy'].id)
log(`${all[0]}`)
log(all[0].toText())
