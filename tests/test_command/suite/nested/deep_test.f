test d = 'deep'
d(true, true)
