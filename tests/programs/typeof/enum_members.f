// §8.11 typeof of an enum is the member currently held, never the enum's name
struct Cat {
    lives:int
}
enum Pet = Cat, text, arr[int]
Cat c
Pet p = c
log(typeof p)
p = 'goldfish'
log(typeof p)
arr[int] xs = []
p = xs
log(typeof p)
log(typeof p == 'Pet')
