void func risky(n:int) {
    if n < 0 { throw `negative: ${n}` }
}

try {
    risky(-1)
} catch (e:text) {
    log(e)
}

try { risky(1) }
catch (err:text) { fail(err) }
