struct Point { x:int, y:int }
struct Node {
    value:int;   next:Node
    parent:weak   Node
}
table Task{title:text done:bool}
struct Empty {
}
enum Shape=Point,Node
Point p={'x':1,'y':2}
Point q = { 'x' : 3 }
log(p.x+q.x)
