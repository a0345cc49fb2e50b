// §10.8 return may leave a try or a catch body
text func attempt(n:int) {
    try {
        if n > 0 {
            return 'positive'
        }
        throw 'not positive'
    } catch (e:text) {
        return `caught ${e}`
    }
    return 'unreachable'
}
log(attempt(1))
log(attempt(0))
log(attempt(5))
