int x = = 1
log(x
int y = 2 3
if { log(1) }
z = )
int ok = 5
