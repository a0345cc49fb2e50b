// Bound parameters of every type, null included; text that looks like SQL
// stays data (§15.3, §15.4).
DatabaseURL = ':memory:'

table Value {
    i:int
    f:float
    b:bool
    t:text
    raw:blob
}

int n = 42
float x = 0.1
bool yes = true
text word = 'héllo'
ascii code = 'ABC'
blob data = 'params.f'
int nullInt = null
float nullFloat = null
text nullText = null
sqlite('INSERT INTO Value (i, f, b, t, raw) VALUES (?, ?, ?, ?, ?)', [n, x, yes, word, data])
sqlite('INSERT INTO Value (i, f, b, t, raw) VALUES (?, ?, ?, ?, ?)', [-7, 1 / 4, false, code, null])
sqlite('INSERT INTO Value (i, f, b, t, raw) VALUES (?, ?, ?, ?, ?)', [nullInt, nullFloat, null, nullText, null])
sqlite('INSERT INTO Value (i, f, b, t) VALUES (?, ?, ?, ?)', [9223372036854775807, -1500.5, true, ''])

struct Kind {
    ti:text
    tf:text
    tb:text
    tt:text
    traw:text
}
arr[Kind] kinds = sqlite('SELECT typeof(i) AS ti, typeof(f) AS tf, typeof(b) AS tb, typeof(t) AS tt, typeof(raw) AS traw FROM Value ORDER BY rowid')
log(kinds)

arr[Value] vs = sqlite('SELECT * FROM Value ORDER BY rowid')
log(vs[0].i)
log(vs[0].f)
log(vs[0].b)
log(vs[0].t)
log(vs[0].raw.length == data.length)
log(vs[0].raw.exists())
log(vs[1].t)
log(vs[1].f)
log(vs[2].i == null)
log(vs[2].t == null)
log(vs[2].raw == null)
log(vs[3].i)
log(vs[3].f)
log(vs[3].t.length)

// Injection attempts through parameters are stored as data.
text evil = "x'); DROP TABLE Value; --"
sqlite('INSERT INTO Value (t) VALUES (?)', [evil])
sqlite('INSERT INTO Value (t) VALUES (?)', ['1 OR 1=1'])
arr[Value] hit = sqlite('SELECT t FROM Value WHERE t = ?', [evil])
log(hit.length)
log(hit[0].t)
arr[Value] none = sqlite('SELECT t FROM Value WHERE i = ?', ['1 OR 1=1'])
log(none.length)
struct Count {
    n:int
}
arr[Count] c = sqlite('SELECT count(*) AS n FROM Value')
log(c[0].n)

// Dynamic SQL (not a literal) is prepared per call.
for int k = 0, k < 3, k++ {
    text q = `SELECT ${k} AS n`
    arr[Count] one = sqlite(q)
    log(one[0].n)
}
