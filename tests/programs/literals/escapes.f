// §7.5.2 escapes \n \t \\ \' \" \` and a backslash before any other character
log('a\nb')
log('tab\there')
log('back\\slash')
log('it\'s')
log("say \"hi\"")
log('tick\`')
log('\q\z')
