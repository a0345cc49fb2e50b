// §8.9.1 structs may reference each other, declared in any order
struct Owner {
    name:text
    pet:Pet
}
struct Pet {
    name:text
    owner:Owner
}
Owner o = {'name': 'Ann'}
Pet p = {'name': 'Rex'}
o.pet = p
p.owner = o
log(o.pet.name)
log(p.owner.name)
log(o.pet.owner.pet.name)
