// §8.21 float fields render with %g inside JSON
struct Vec2 {
    x:float
    y:float
}
Vec2 v = {'x': 1.5, 'y': 0.1 + 0.2}
log(v)
v.x = v.x * 1000000
log(v)
