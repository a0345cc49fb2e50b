// §8.11 a struct produced by JSON parsing is a member of every enum that
// lists its type; enum-typed fields and elements parse too
struct Circle {
    radius:int
}
struct Square {
    side:int
}
enum Shape = Circle, Square
enum Val = int, float, text, arr[int], Circle
struct Drawing {
    title:text
    shapes:arr[Shape]
}
Circle c = '{"radius": 3}'.toStruct(Circle)
Shape s = c
match s {
    'Circle' { log(`circle ${s.radius}`) }
    'Square' { log('square') }
}
Drawing d = '{"title": "two", "shapes": [{"radius": 1}, {"side": 2}, null]}'.toStruct(Drawing)
for int i = 0, i < 2, i++ {
    log(typeof d.shapes[i])
}
log(d.shapes[2] == null)
log(d)
arr[Val] vals = '[1, 2.5, "two", [3], {"radius": 4}]'.toArr(Val)
log(vals)
for int i = 0, i < vals.length, i++ {
    log(typeof vals[i])
}
