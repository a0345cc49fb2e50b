// §8.9.4 the expected type flows into nested literals: struct fields, array elements, map values
struct Point {
    x:int
    y:int
}
struct Shape {
    origin:Point
    tags:map[text]
    name:text
}
Shape s = {'origin': {'x': 1, 'y': 2}, 'tags': {'kind': 'box'}, 'name': 'b1'}
log(s)
arr[Point] ps = [{'x': 1, 'y': 2}, {'x': 3, 'y': 4}]
ps[0] = {'x': 9, 'y': 9}
log(ps)
map[Point] named = {'home': {'x': 5, 'y': 6}}
log(named['home'].y)
