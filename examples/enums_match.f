// enums_match.f: a tagged union and exhaustive matching.
struct Circle {
    radius:float
}
struct Rect {
    width:float
    height:float
}
struct Label {
    caption:text
}

// An enum holds exactly one of its member types at a time.
enum Shape = Circle, Rect, Label

float func area(s:Shape) {
    // match dispatches on `typeof s`, the name of the member held. Leaving a
    // member out (without a `default` arm) is a compile error.
    match s {
        'Circle' { return 3.14159 * s.radius * s.radius }
        'Rect' { return s.width * s.height }
        'Label' { return 0.0 }
    }
    return 0.0
}

Circle c = {'radius': 2.0}
Rect r = {'width': 3.0, 'height': 4.5}
Label l = {'caption': 'hello'}

// A member value converts to the enum wherever the enum is expected.
arr[Shape] shapes = [c, r, l]

for int i = 0, i < shapes.length, i++ {
    Shape s = shapes[i]
    log(`${typeof s}: area ${area(s)}`)
}

// A field declared by exactly one member can be read through the enum.
Shape first = shapes[0]
log(first.radius)

// An enum renders as the JSON of the value it holds.
log(shapes)
