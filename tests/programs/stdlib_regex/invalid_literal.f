// A literal is compiled when its site first runs; a lazy quantifier
// has no POSIX meaning
log('before')
log(/a*?/.test('aaa'))
