// helper
log('first')
