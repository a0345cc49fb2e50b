// our runtime: the failure names the line of the access, inside a function
int func last(xs:arr[int]) {
    return xs[xs.length]
}
log(last([4, 5]))
