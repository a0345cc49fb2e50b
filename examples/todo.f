// golden: skip
// (It keeps its list between runs, so festina-cli/tests/database.rs runs it
// instead of the golden runner.)
//
// A to-do list that persists between runs in todo.sqlite, with no set-up
// code: the `table` declaration creates (and later migrates) the table.
//
//     festina todo.f add 'buy milk'
//     festina todo.f list
//     festina todo.f done 1
//     festina todo.f undo 1
//     festina todo.f remove 1
//     festina todo.f clear          (removes the finished tasks)
DatabaseURL = 'todo.sqlite'

table Task {
    title:text
    done:bool
    created:int
}

struct Counts {
    open:int
    finished:int
}

struct Changed {
    n:int
}

// How many rows the last INSERT, UPDATE or DELETE changed.
int func changed() {
    arr[Changed] c = sqlite('SELECT changes() AS n')
    return c[0].n
}

void func list() {
    arr[Task] tasks = sqlite('SELECT rowid, title, done FROM Task ORDER BY rowid')
    if tasks.length == 0 {
        log('nothing to do')
        return
    }
    for int i = 0, i < tasks.length, i++ {
        Task t = tasks[i]
        text mark = t.done ? 'x' : ' '
        log(`${t.rowid}. [${mark}] ${t.title}`)
    }
    arr[Counts] c = sqlite('SELECT total(done = 0) AS open, total(done = 1) AS finished FROM Task')
    log(`${c[0].open} open, ${c[0].finished} done`)
}

text command = argv.length > 1 ? argv[1] : 'list'
text arg = argv.length > 2 ? argv[2] : null

if command == 'list' {
    list()
} else if command == 'add' && arg != null {
    sqlite('INSERT INTO Task (title, done, created) VALUES (?, ?, ?)', [arg, false, now()])
    log(`added: ${arg}`)
} else if (command == 'done' || command == 'undo') && arg != null {
    sqlite('UPDATE Task SET done = ? WHERE rowid = ?', [command == 'done', arg.toInt()])
    if changed() == 0 {
        log(`no task ${arg}`)
        close(1)
    }
    list()
} else if command == 'remove' && arg != null {
    sqlite('DELETE FROM Task WHERE rowid = ?', [arg.toInt()])
    if changed() == 0 {
        log(`no task ${arg}`)
        close(1)
    }
    list()
} else if command == 'clear' {
    sqlite('DELETE FROM Task WHERE done')
    log(`removed ${changed()} finished tasks`)
} else {
    log('usage: festina todo.f [list | add TEXT | done N | undo N | remove N | clear]')
    close(2)
}
