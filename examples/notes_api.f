// golden: skip
// (A server: festina-cli/tests/net/examples.rs runs it with real clients.)
//
// A JSON API over a table: list, add and delete notes, kept in
// notes.sqlite between runs.
//
//     festina examples/notes_api.f 8080
//     curl -s localhost:8080/notes
//     curl -s -X POST -d '{"body": "buy milk"}' localhost:8080/notes
//     curl -s -X DELETE localhost:8080/notes/1
DatabaseURL = 'notes.sqlite'

table Note {
    body:text
    created:int
}

// What a client gets: a note with its id.
struct Shown {
    id:int
    body:text
    created:int
}

// What a client posts.
struct NewNote {
    body:text
}

struct Problem {
    error:text
}

struct Changed {
    n:int
}

void func problem(req:http, code:int, message:text) {
    Problem p = {'error': message}
    req.send({'code': code, 'body': p})
}

void func list(req:http) {
    arr[Shown] notes = sqlite('SELECT rowid AS id, body, created FROM Note ORDER BY rowid')
    req.send({'body': notes})
}

void func add(req:http) {
    NewNote n
    try {
        n = req.toText().toStruct(NewNote)
    } catch (e:text) {
        problem(req, 400, `the body must be a JSON object like {"body": "..."}: ${e}`)
        return
    }
    if n.body == '' {
        problem(req, 400, 'a note needs a body')
        return
    }
    sqlite('INSERT INTO Note (body, created) VALUES (?, ?)', [n.body, now()])
    arr[Shown] added = sqlite('SELECT rowid AS id, body, created FROM Note WHERE rowid = last_insert_rowid()')
    req.send({'code': 201, 'headers': {'location': `/notes/${added[0].id}`}, 'body': added[0]})
}

void func remove(req:http, id:text) {
    sqlite('DELETE FROM Note WHERE rowid = ?', [id.toInt()])
    arr[Changed] c = sqlite('SELECT changes() AS n')
    if c[0].n == 0 {
        problem(req, 404, `no note ${id}`)
        return
    }
    req.send({'code': 204})
}

on request(req:http) {
    arr[text] parts = parseURL(req.url).pathname.split('/')
    if parts.length < 2 || parts[1] != 'notes' || parts.length > 3 {
        problem(req, 404, 'try /notes')
        return
    }
    bool one = parts.length == 3 && parts[2] != ''
    if !one && req.method == 'GET' {
        list(req)
    } else if !one && req.method == 'POST' {
        add(req)
    } else if one && req.method == 'DELETE' {
        remove(req, parts[2])
    } else {
        problem(req, 405, `${req.method} is not allowed here`)
    }
}

int port = argv.length > 1 ? argv[1].toInt() : 8080
openPort(port)
log(`notes on http://localhost:${port}/notes`)
