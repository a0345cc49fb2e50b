// §8.8 m[key] reads (null when missing); m[key] = v adds or replaces
map[int] ages = {'ann': 31}
log(ages['ann'])
ages['bob'] = 27
log(ages['bob'])
ages['ann'] = 32
log(ages['ann'])
log(ages['zed'])
log(ages['zed'] == null)
