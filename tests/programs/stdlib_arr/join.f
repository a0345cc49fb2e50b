// §16.3 join(sep): text, int, float and bool elements; null renders empty
arr[int] xs = [1, 2, 3]
log(xs.join(', '))
log(xs.join(''))
arr[text] ts = ['a', null, 'c']
log(ts.join('-'))
arr[float] fs = [1.5, 0.1 + 0.2, 1000000.0, null]
log(fs.join(' '))
arr[bool] bs = [true, false]
log(bs.join('|'))
arr[int] empty = []
log(`[${empty.join(',')}]`)
arr[text] one = ['solo']
log(one.join(', '))
arr[int] withNull = [1, null, 3]
log(withNull.join(','))
ascii a = 'x'
arr[ascii] asciis = [a, a]
log(asciis.join('+'))
amor arr[int] am = [7, 8]
log(am.join(':'))
