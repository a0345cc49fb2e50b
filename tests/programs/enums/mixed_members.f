// §8.11 members may be primitives, structs, arrays: typeof names the held member
struct Box {
    n:int
}
enum Choice = int, text, Box, arr[int]
Choice c = 5
log(typeof c)
log(c)
c = 'hello'
log(typeof c)
Box b = {'n': 1}
c = b
log(typeof c)
log(c)
arr[int] xs = [1, 2]
c = xs
log(typeof c)
log(c)
