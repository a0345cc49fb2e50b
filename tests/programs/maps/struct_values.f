// §8.8 map values may be structs (shared, not copied)
struct Point {
    x:int
    y:int
}
map[Point] pts = {'p': {'x': 1, 'y': 2}}
pts['q'] = {'x': 3, 'y': 4}
log(pts['q'])
Point p = pts['p']
p.x = 100
log(pts['p'].x)
log(pts['r'] == null)
