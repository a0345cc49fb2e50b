// §8.11 a member value coerces to the enum at every assignable position
struct Cat {
    meow:text
}
struct Dog {
    woof:text
}
enum Pet = Cat, Dog
struct Home {
    pet:Pet
}
text func describe(p:Pet) {
    return typeof p
}
Pet func adopt(wantCat:bool) {
    if wantCat {
        Cat c = {'meow': 'mew'}
        return c
    }
    Dog d = {'woof': 'arf'}
    return d
}
Cat c = {'meow': 'purr'}
log(describe(c))
Pet p = adopt(false)
log(typeof p)
Home h
h.pet = c
log(typeof h.pet)
arr[Pet] pets = [c, adopt(false)]
log(typeof pets[1])
map[Pet] byName = {'tom': c}
log(typeof byName['tom'])
log(h)
