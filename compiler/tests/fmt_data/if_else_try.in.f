int x = 3
if x > 1 {
    log('big')
}
else if x > 0
{
    log('small')
}

else {
    log('none')
}
try {
    throw 'oops'
}
catch(e:text){
    log(e)
}
if x == 3 { log('three') } else { log('other') }
if x == 3 {
    log('a')
} // done
else {
    log('b')
}
