text result = 'a b c'
    .split(' ')
    .join('-')
int sum = 1 +
    2 +
    3
bool ok = sum > 1 &&
    sum < 10
log(
    result,
    sum
)
int pick = ok ?
    1 :
    2
