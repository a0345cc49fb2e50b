// §8.3 comparisons across the whole int range
int max = 9223372036854775807
int min = -9223372036854775807 - 1
log(max > min)
log(min < 0)
log(max + 1 < 0)
log(max == 9223372036854775807)
