// §9.6 typeof of arrays, maps and structs spells the type as declared
struct User {
    id:int
}
arr[int] xs = [1]
arr[arr[text]] grid = []
map[int] m = {}
map[User] users = {}
arr[User] list = []
User u
log(typeof xs)
log(typeof grid)
log(typeof m)
log(typeof users)
log(typeof list)
log(typeof u)
