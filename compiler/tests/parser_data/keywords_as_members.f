file.delete()
bool has = s.match(re)
int n = s.length
x.import.free.if = 1
log(obj.text, obj.int, obj.return)
