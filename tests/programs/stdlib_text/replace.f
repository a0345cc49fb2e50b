// §16.3 text.replace(text, text): the first occurrence only
log('room 42'.replace('room', 'suite'))
log('a-b-c'.replace('-', '_'))
log('abc'.replace('x', 'y'))
log('abc'.replace('', '-'))
log('aaa'.replace('a', 'aa'))
log('héllo wörld'.replace('ö', 'o'))
text s = 'keep'
text t = s.replace('e', 'E')
log(s)
log(t)
