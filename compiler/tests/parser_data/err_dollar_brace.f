text a = ${x}
log(a)
