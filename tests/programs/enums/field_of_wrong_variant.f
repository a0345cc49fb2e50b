// expect: runtime failure at line 13: reading field 'radius' while the enum holds a Square (message wording not fixed yet); stdout 'before'; exit 1
// §8.11 reading a field the current variant lacks is a runtime failure
struct Circle {
    radius:int
}
struct Square {
    side:int
}
enum Shape = Circle, Square
Square sq = {'side': 2}
Shape s = sq
log('before')
log(s.radius)
log('never')
