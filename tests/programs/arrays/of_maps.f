// §8.7 the element type may be a map
arr[map[int]] ms = [{'a': 1}, {}]
ms[1]['b'] = 2
log(ms)
log(ms[0]['a'] + ms[1]['b'])
