// §9.8 two bools compare with == and !=
bool t = true
log(t == true)
log(false != true)
log((1 < 2) == t)
log(false == false)
