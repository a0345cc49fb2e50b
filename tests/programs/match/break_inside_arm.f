// §10.7 match is not a loop: break in an arm leaves the enclosing loop
struct Go {
    step:int
}
struct Stop {
    why:text
}
enum Cmd = Go, Stop
arr[Cmd] cmds = []
Go g1 = {'step': 1}
Go g2 = {'step': 2}
Stop s = {'why': 'wall'}
Go g3 = {'step': 3}
cmds.push(g1)
cmds.push(g2)
cmds.push(s)
cmds.push(g3)
int pos = 0
for int i = 0, i < cmds.length, i++ {
    Cmd c = cmds[i]
    match c {
        'Go' { pos = pos + c.step }
        'Stop' {
            log(`stopped: ${c.why}`)
            break
        }
    }
}
log(pos)
