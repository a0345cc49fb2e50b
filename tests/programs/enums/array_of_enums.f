// §8.11 enums in an array, dispatched with match
struct Circle {
    r:int
}
struct Rect {
    w:int
    h:int
}
enum Shape = Circle, Rect
arr[Shape] shapes = []
Circle c1 = {'r': 1}
Rect r1 = {'w': 2, 'h': 3}
Circle c2 = {'r': 2}
shapes.push(c1)
shapes.push(r1)
shapes.push(c2)
int circles = 0
int rectArea = 0
for int i = 0, i < shapes.length, i++ {
    Shape s = shapes[i]
    match s {
        'Circle' { circles++ }
        'Rect' { rectArea = rectArea + s.w * s.h }
    }
}
log(circles)
log(rectArea)
log(shapes)
