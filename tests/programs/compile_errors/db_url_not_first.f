// DatabaseURL must be the entry file's first statement (§6.4).
log('hello')
DatabaseURL = 'late.sqlite'
