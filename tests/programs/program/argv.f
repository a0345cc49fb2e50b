// §16.2 argv holds the program path as given on the command line, then the
// program's arguments (here from argv.args, one per line)
log(argv.length)
log(argv[0])
log(argv[1])
log(argv[2])
log(typeof argv)
