// blob and text are distinct types (§8.20): only text -> blob converts.
blob b = 'fixture.txt'
log(b == 'fixture.txt')
text t = b
blob c = 5
log(b.length())
int n = b.save(1)
