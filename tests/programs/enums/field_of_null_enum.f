// A field read through a null enum value is a runtime failure naming the
// field and the enum, in the reference's words.
struct Circle { radius:int }
struct Square { area:int }
enum Shape = Circle, Square
Shape shape
log('before')
log(shape.radius)
log('not reached')
