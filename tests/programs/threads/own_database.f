// A thread's own database (§20.7): its DatabaseURL, its own connection,
// every declared table synchronized against it; main's is another.
DatabaseURL = 'file:main_db?mode=memory'
table Note {
    body: text
}
struct Count {
    n: int
}

thread archive {
    DatabaseURL = 'file:archive_db?mode=memory'
    on message(sender: thread, body: text) {
        sqlite('INSERT INTO Note (body) VALUES (?)', [body])
        arr[Count] c = sqlite('SELECT COUNT(*) AS n FROM Note')
        sender.reply(c[0].n)
    }
}

sqlite('INSERT INTO Note (body) VALUES (?)', ['main only'])
sqlite('INSERT INTO Note (body) VALUES (?)', ['main again'])
sqlite('INSERT INTO Note (body) VALUES (?)', ['main third'])
void func stored(count: int) {
    arr[Count] mine = sqlite('SELECT COUNT(*) AS n FROM Note')
    log(`archive holds ${count}, main holds ${mine[0].n}`)
}
archive.postMessage('first').callback(stored)
archive.postMessage('second').callback(stored)
