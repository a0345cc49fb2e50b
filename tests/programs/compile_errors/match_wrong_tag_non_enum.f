// expect: 5:5 unknown match tag 'text' for a subject of type int
// §10.9 for a non-enum subject the only valid tag is its type name
int n = 1
match n {
    'text' { log('?') }
}
