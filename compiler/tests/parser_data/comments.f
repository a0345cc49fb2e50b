// leading comment
int x = 1 // trailing
/* block
   comment */ int y = /* inline */ 2
/* a */ log(x /* b */ + y) // c
