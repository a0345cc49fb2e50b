// expect: compile error, exit 2: _bad/typo.f:3:14: error: cannot assign value of type text to int (the file named is the imported one, not this one)
// §14.1 diagnostics name the file the offending statement came from
import _bad/typo.f
log('never')
