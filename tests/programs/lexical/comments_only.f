// §6.3 a program with no executable statements prints nothing and exits 0
/* nothing
   to see */
// here
