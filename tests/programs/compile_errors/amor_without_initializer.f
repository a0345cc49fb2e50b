// expect: 3:15 amor arr variable 'xs' requires an initializer
// §8.7 an amor arr variable requires an initializer
amor arr[int] xs
log(xs)
