log('Hello, world!')
