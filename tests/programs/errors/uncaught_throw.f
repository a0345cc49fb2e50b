// §10.10 with no enclosing try, throw behaves exactly like fail(expr)
log('start')
throw 'unhandled problem'
log('never')
