// §8.8 map literals: {key: value, ...} and {}
map[int] ages = {'bo': 7}
map[text] empty = {}
map[bool] flags = {"on": true}
log(ages)
log(empty)
log(flags)
log(ages['bo'])
