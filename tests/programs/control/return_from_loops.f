// §10.8 return leaves any number of loops at once
text func find(target:int) {
    for int i = 0, i < 5, i++ {
        for int j = 0, j < 5, j++ {
            if i * j == target {
                return `${i}*${j}`
            }
        }
    }
    return 'none'
}
log(find(6))
log(find(16))
log(find(17))
