// §10.9 match dispatches on typeof; arms cover every member
struct Circle {
    radius:int
}
struct Square {
    side:int
}
enum Shape = Circle, Square
void func describe(s:Shape) {
    match s {
        'Circle' {
            log(`circle r=${s.radius}`)
        }
        'Square' {
            log(`square side=${s.side}`)
        }
    }
}
Circle c = {'radius': 3}
Square q = {'side': 4}
describe(c)
describe(q)
