// §16.2 argv is an ordinary mutable array
argv.push('extra')
log(argv.length)
log(argv[argv.length - 1])
