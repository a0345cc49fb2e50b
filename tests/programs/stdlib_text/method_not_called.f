// expect: 2:9 method 'trim' of text must be called
log('x'.trim)
