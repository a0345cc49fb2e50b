// §8.21 every type with a text form may be substituted into a template
struct P {
    x:int
    y:int
}
enum Value = int, P
P p = {'x': 1, 'y': 2}
arr[text] words = ['a', 'b']
map[bool] flags = {'k': true}
ascii code = 'AZ'
int missing = null
Value v = p
log(`int ${42} float ${2.5} bool ${false} text ${'t'}`)
log(`struct ${p} arr ${words} map ${flags}`)
log(`ascii ${code} null ${missing} enum ${v}`)
