// expect: 3:5 map values cannot be arrays or maps
// §8.8 a map value type may not be an array or a map
map[arr[int]] m = {}
