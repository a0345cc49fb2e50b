

// A leading comment.
/* a block
   comment */
int x = 1          // one
int longer = 22 // two
log(x)   // alone

int y = 2 // after a blank line
void func f() {   // opens
    // inside
    log(1)
        // before the end
}
log(/* inline */ x)
log(x /* after */)
    // trailing comment at the end
