// §13.1 a struct local in a loop body is reclaimed every iteration: 1e6 iterations
struct Particle {
    x:int
    y:int
    tag:text
}
int count = 0
for int i = 0, i < 1000000, i++ {
    Particle p
    p.x = i
    p.y = i * 2
    p.tag = 'p'
    if p.y - p.x == i {
        count++
    }
}
log(count)
