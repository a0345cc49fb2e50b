// hello.f: the smallest Festina program.
// There is no main(): the top-level statements of the file are the program.
// log() prints any value followed by a newline.
log('Hello, Festina!')
