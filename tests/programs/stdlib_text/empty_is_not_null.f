// The empty text is a value, not null, wherever it is held; an
// unassigned text is null; null and '' are not equal.
text a = ''
if a == null { log('null') } else { log('present') }
text b
if b == null { log('null') } else { log('present') }
struct S { s:text }
S st
st.s = ''
if st.s == null { log('null') } else { log('present') }
arr[text] xs = ['']
if xs[0] == null { log('null') } else { log('present') }
map[text] m = {'k': '', '': 'empty key'}
if m['k'] == null { log('null') } else { log('present') }
text c = 'x'
text d = c.slice(1, 1)
if d == null { log('null') } else { log('present') }
log(`${d.length}`)
if '' == null { log('null') } else { log('present') }
text n
if n == '' { log('equal') } else { log('different') }
text e = ''
if e != null { log('e != null') }
if n != '' { log('n != empty') }
if e != n { log('e != n') }
log(m[''])
ascii p = ''
ascii q
if p == null { log('p null') } else { log('p present') }
if q == null { log('q null') } else { log('q present') }
