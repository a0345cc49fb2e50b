// An SQL syntax error fails the program at the call.
DatabaseURL = ':memory:'
log('start')
sqlite('SELEC * FORM nowhere')
