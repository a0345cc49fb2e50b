// A non-ASCII literal cannot become an ascii, and a text variable is not
// converted implicitly (§8.5).
ascii a = 'abc'
text t = 'abc'
log(a == t)
ascii b = true ? 'ok' : 'né'
