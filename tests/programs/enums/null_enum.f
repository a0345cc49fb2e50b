// §8.11 a never-assigned enum binding is null
struct Cat {
    lives:int
}
struct Dog {
    good:bool
}
enum Pet = Cat, Dog
Pet p
log(p == null)
Cat c
p = c
log(p != null)
log(typeof p)
