// expect: 8:7 struct 'Point' has no field 'z'
// §9.2 an unknown struct member
struct Point {
    x:int
    y:int
}
Point p
log(p.z)
