// §14.2 fail(message) prints `fail: message` on stderr and exits with status 1
log('working')
fail('something broke')
log('never')
