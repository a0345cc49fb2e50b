log('Hello, World!')
