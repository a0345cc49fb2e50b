// expect: 3:1 unknown type 'Person'
// §8.19 an unknown type name
Person p
log(p)
