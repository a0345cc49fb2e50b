// expect: 6:8 'join' needs an array of int, float, bool, text or ascii, found arr[P]
struct P {
    x:int
}
arr[P] ps = []
log(ps.join(','))
