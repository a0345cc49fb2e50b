// §10.9 arms may be empty; return inside an arm leaves the function
struct Hit {
    damage:int
}
struct Miss {
    reason:text
}
enum Outcome = Hit, Miss
int func damageOf(o:Outcome) {
    match o {
        'Hit' { return o.damage }
        'Miss' { }
    }
    return 0
}
Hit h = {'damage': 12}
Miss m = {'reason': 'dodged'}
log(damageOf(h))
log(damageOf(m))
