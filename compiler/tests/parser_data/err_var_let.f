var x = 1
let y = 2
int z = 3
