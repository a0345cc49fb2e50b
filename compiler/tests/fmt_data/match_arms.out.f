struct Circle {
    radius:float
}
struct Rect {
    width:float
    height:float
}
enum Shape = Circle, Rect
float func area(s:Shape) {
    match s {
        'Circle' { return 3.14159 * s.radius * s.radius }
        'Rect' { return s.width * s.height }
    }
    return 0.0
}
Circle c = {'radius': 2.0}
Shape s = c
match (s) {
    'Circle' {
        log('circle')
    }
    default { log('other') }
}
