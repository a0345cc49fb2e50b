log('strings suite running')
test s = 'strings'
s('a' + 'b', 'ab')
