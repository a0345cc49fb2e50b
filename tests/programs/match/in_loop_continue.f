// §10.7 continue in a match arm continues the enclosing loop
enum Token = int, text
arr[Token] toks = []
toks.push(1)
toks.push('skip')
toks.push(2)
toks.push('skip')
toks.push(3)
int sum = 0
for int i = 0, i < toks.length, i++ {
    Token t = toks[i]
    match t {
        'text' { continue }
        'int' { }
    }
    sum = sum + 1
}
log(sum)
