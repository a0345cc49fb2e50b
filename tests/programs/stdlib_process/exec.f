// exec(args) runs a program found on PATH, never through a shell, with
// the standard streams inherited, and yields its exit code or -1 if it
// could not start (§16.5).
log(exec(['true']))
log(exec(['false']))
log(exec(['sh', '-c', 'exit 3']))
log('before the child')
log(exec(['sh', '-c', 'echo from the child']))
log('after the child')
// Arguments are passed as they are: no shell expansion.
log(exec(['sh', '-c', 'test "$1" = "a b*"', 'sh', 'a b*']))
// A missing program, an empty program name and an empty list: -1.
log(exec(['festina-no-such-program-xyz']))
log(exec(['']))
arr[text] none = []
log(exec(none))
// A child ended by a signal: 128 + the signal number.
log(exec(['sh', '-c', 'kill -9 $$']))
