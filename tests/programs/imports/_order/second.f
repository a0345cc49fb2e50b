// helper
log('second')
