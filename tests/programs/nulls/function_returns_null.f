// §8.2 null as a return value of any type
text func find(xs:arr[text], prefix:text) {
    for int i = 0, i < xs.length, i++ {
        if xs[i][0] == prefix {
            return xs[i]
        }
    }
    return null
}
int func indexOf(xs:arr[int], v:int) {
    for int i = 0, i < xs.length, i++ {
        if xs[i] == v {
            return i
        }
    }
    return null
}
arr[text] names = ['ann', 'bob']
log(find(names, 'b'))
log(find(names, 'z') == null)
log(indexOf([5, 6], 6))
log(indexOf([5, 6], 7))
