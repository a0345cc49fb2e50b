// expect: 4:10 cannot free parameter 'xs' (only a T? parameter may be freed)
// §10.11 an ordinary parameter may not be freed
void func f(xs:arr[int]) {
    free xs
}
