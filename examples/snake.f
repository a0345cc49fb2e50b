// golden: skip
// (It needs a display: festina-cli/tests/window.rs plays it under Xvfb.)
// snake.f: the classic game in a window (§17), played with the arrow
// keys. Eat the red squares to grow; running into a wall or into
// yourself ends the game. Space pauses, R restarts, Escape quits.
//
//     festina examples/snake.f
//
// The snake moves on a timer (§12.4) while the key handlers (§17.4)
// change its heading: both run from the one event loop, one at a time.
// Food appears where a small fixed random sequence puts it, so every
// game is the same game.

color grass = '#1b5e20'
color body = '#a5d6a7'
color head = '#ffeb3b'
color food = '#e53935'
color ink = 'white'
font big = 'bold 28px sans-serif'
font small = '16px sans-serif'

int cell = 20
int cols = 20
int rows = 15
setClientWidth(cols * cell)
setClientHeight(rows * cell)

arr[int] xs = []
arr[int] ys = []
int dx = 1
int dy = 0
// the heading asked for by the keys, taken at the next step (two keys
// within one step cannot turn the snake back onto itself)
int nextDx = 1
int nextDy = 0
int foodX = 0
int foodY = 0
int score = 0
int seed = 7
bool over = false
bool paused = false
int timer = 0

// Park-Miller: the same food positions every game.
int func random(n:int) {
    seed = (seed * 48271) % 2147483647
    return seed % n
}

bool func onSnake(x:int, y:int) {
    for int i = 0, i < xs.length, i++ {
        if xs[i] == x && ys[i] == y {
            return true
        }
    }
    return false
}

void func placeFood() {
    foodX = random(cols)
    foodY = random(rows)
    while onSnake(foodX, foodY) {
        foodX = random(cols)
        foodY = random(rows)
    }
}

void func start() {
    xs = [5, 4, 3]
    ys = [7, 7, 7]
    dx = 1
    dy = 0
    nextDx = 1
    nextDy = 0
    score = 0
    seed = 7
    over = false
    paused = false
    placeFood()
    draw()
    log('started')
}

void func draw() {
    drawRect(0, 0, clientWidth, clientHeight, grass)
    drawRect(foodX * cell + 2, foodY * cell + 2, cell - 4, cell - 4, food)
    for int i = xs.length - 1, i >= 0, i-- {
        color c = body
        if i == 0 {
            c = head
        }
        drawRect(xs[i] * cell + 1, ys[i] * cell + 1, cell - 2, cell - 2, c)
    }
    fillStyle(ink)
    changeFont(small)
    drawText(`${score}`, 6, 18)
    if over {
        changeFont(big)
        drawText('game over', 120, 140)
        changeFont(small)
        drawText('R to play again, Escape to quit', 85, 170)
    } else if paused {
        changeFont(big)
        drawText('paused', 150, 140)
    }
    render()
}

void func step() {
    if over || paused {
        return
    }
    dx = nextDx
    dy = nextDy
    int x = xs[0] + dx
    int y = ys[0] + dy
    if x < 0 || x >= cols || y < 0 || y >= rows || onSnake(x, y) {
        over = true
        log(`game over at ${xs[0]},${ys[0]} score ${score}`)
        draw()
        return
    }
    xs.unshift(x)
    ys.unshift(y)
    if x == foodX && y == foodY {
        score++
        log(`score ${score}`)
        placeFood()
    } else {
        xs.pop()
        ys.pop()
    }
    draw()
}

void func turn(x:int, y:int) {
    // never straight back into the neck
    if x == -dx && y == -dy {
        return
    }
    nextDx = x
    nextDy = y
}

on keyDown(key:text) {
    if key == 'Left' { turn(-1, 0) }
    if key == 'Right' { turn(1, 0) }
    if key == 'Up' { turn(0, -1) }
    if key == 'Down' { turn(0, 1) }
}

on keyUp(key:text) {
    if key == ' ' && !over {
        paused = !paused
        draw()
    }
    if key == 'r' && over {
        start()
    }
    if key == 'Escape' {
        close(0)
    }
}

// Escape or the window's close button: either way the program ends.
on exit(code:int) {
    log(`bye, score ${score}`)
}

start()
timer = setInterval(step, 150)
