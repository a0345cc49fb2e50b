// A program that arms nothing ends when its top-level code ends.
void func unused() { log('unused') }
int id = setTimeout(unused, 1000000)
clearTimeout(id)
log('done')
