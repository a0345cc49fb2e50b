// expect: 5:7 cannot assign value of type arr[P] to P
struct P {
    x:int
}
P p = '[]'.toArr(P)
