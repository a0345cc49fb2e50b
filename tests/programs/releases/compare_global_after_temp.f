// A compare-and-branch whose left side needs a temporary (the receiver
// of charCodeAt) and whose right side is a global: the release owed on
// the receiver's temporary must not land on the register the global was
// loaded into (issue 10, item 0).
int lt = 60
ascii s = 'x<'.toAscii()
text t = 'x<'
void func probe() {
    if s.charCodeAt(1) == lt { log('equal') } else { log('WRONG') }
    if t.charCodeAt(1) == lt { log('equal') } else { log('WRONG') }
    if s.charCodeAt(1) != lt { log('WRONG') } else { log('equal') }
    if t.charCodeAt(1) < lt { log('WRONG') } else { log('not less') }
    if t.charCodeAt(1) <= lt { log('at most') } else { log('WRONG') }
    if lt < t.charCodeAt(0) { log('less than x') } else { log('WRONG') }
    bool same = s.charCodeAt(1) == lt
    log(same)
}
probe()
