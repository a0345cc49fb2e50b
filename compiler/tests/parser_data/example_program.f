// A small complete program touching most of the language.
import ./models.f

struct Todo {
    id:int
    title:text
    done:bool
}

table Task { title:text  priority:int }

enum Item = Todo, text

arr[Todo] todos = []
const int MAX = 100

Todo func makeTodo(id:int, title:text) {
    Todo t = {'id': id, 'title': title}
    return t
}

void func show(item:Item) {
    match item {
        'Todo' { log(`todo #${item.id}: ${item.title}`) }
        'text' { log(item) }
    }
}

for int i = 0, i < 3, i++ {
    todos.push(makeTodo(i, `task ${i}`))
}

arr[Task] rows = sqlite('SELECT * FROM Task WHERE priority > ?', [1])
func[Todo]:bool isDone = bool (t:Todo) => t.done == true
int open = 0
while open < todos.length {
    if !isDone(todos[open]) && todos[open].title.match(/task \d/i) != null {
        show(todos[open])
    }
    open++
}

try {
    if open > MAX { throw 'too many' }
} catch (e:text) {
    fail(e)
}

on keyDown(key:text) {
    if key == 'q' { close(0) }
}

thread saver[2] {
    on message(from:thread, msg:text) { log(msg) }
}
