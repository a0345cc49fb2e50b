// §10.9 matching an enum with primitive and struct members (no field access:
// §8.11 allows it only when every member is a struct)
struct Box {
    n:int
}
enum Item = int, text, Box
void func show(i:Item) {
    match i {
        'int' { log('got an int') }
        'text' { log('got a text') }
        'Box' { log('got a box') }
    }
}
Box b = {'n': 9}
show(1)
show('one')
show(b)
