text name = 'Festina'
log(`${name}:   ${1+2}   items`)
text multi = `line one
   line two ${name}
line three`
log(multi)
log("double \"quoted\"")
log(/ab+c/gi.test('abbc'))
