// §19.5 shorthands: the literal of `http {...}` and of `{...}.send()` is
// checked like any http literal; `.send()` on a map that is not where an
// http value is expected, or with an argument, is no shorthand.
http {'url': 'http://x/', 'bogus': 1}
http x = {'url': 5}.send()
int n = {'url': 'x'}.send()
http y = {'url': 'http://x/'}.send(1)
