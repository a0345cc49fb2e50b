// expect: 3:1 'amor' may only precede 'arr' (amor map is not a type)
// §8.7 amor may only precede arr
amor map[int] m = {}
