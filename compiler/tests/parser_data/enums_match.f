struct Circle { radius:float }
struct Square { side:float }
enum Shape = Circle, Square, int

void func describe(shape:Shape) {
    match shape {
        'Circle' { log(shape.radius) }
        'Square' { log(shape.side) }
        default  { log('other') }
    }
    match shape.inner.kind {
        'int' {
            log(typeof shape)
        }
    }
}
