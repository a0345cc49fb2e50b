text name = 'World'
log(`Hello, ${name}!`)
log(`nested ${ `inner ${name.length} done` } outer`)
log(`map ${ {'a': 1}['a'] } and ${ [1, 2][0] }`)
log(`escapes \` \${not} \n ${1 + 2}`)
text multi = `line one
line two ${name}`
log(``)
