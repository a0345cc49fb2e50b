// expect: 4:44 unknown name 'k', with the no-closures explanation (arrow functions capture nothing)
// §11.1.4 no closures: an arrow cannot see the locals of the function around it
int func addAll(xs:arr[int], k:int) {
    func[int]:int add = int (n:int) => n + k
    int total = 0
    for int i = 0, i < xs.length, i++ {
        total = total + add(xs[i])
    }
    return total
}
log(addAll([1, 2], 3))
