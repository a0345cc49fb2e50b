int a = 1 # 2
int b = @@@
log(a ~ b)
