// §9.11 building text by repeated appends
text s = ''
for int i = 0, i < 1000, i++ {
    s = s + 'ab'
}
log(s.length)
text t = ''
for int i = 0, i < 500, i++ {
    t = `${t}xyz`
}
log(t.length)
log(t[0] + t[1499])
