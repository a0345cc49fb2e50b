// §8.21 an enum renders as JSON, so a held text appears quoted
enum Value = int, text
Value v = 'hi'
log(v)
log(`${v}`)
v = 3
log(v)
