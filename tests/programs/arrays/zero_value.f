// §8.2 an array declared without an initializer is empty, created on first reach
arr[text] names
log(names)
names.push('a')
log(names.length)
log(names)
