// §14.2 fail renders its argument as text
int code = 42
log('about to fail')
fail(code)
