log(`abc ${ 1 + } def`)
log(`open ${ name
