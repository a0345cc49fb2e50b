// expect: 8:7 operator == cannot compare two P values (only == null is allowed)
// §9.8 comparing two structs is an error
struct P {
    x:int
}
P a
P b
log(a == b)
