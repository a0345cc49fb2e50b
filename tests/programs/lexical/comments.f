// §7.2 comments are whitespace; block comments do not nest
log('start') // a trailing comment
/* a block comment
   spanning two lines */
log(/* inside a call */ 'middle')
int x = 1 /* between tokens */ + 2
log(x)
// log('never printed')
/* log('never printed either') */
log('end')
