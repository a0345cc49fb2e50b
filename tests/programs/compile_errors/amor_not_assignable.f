// expect: 4:18 cannot assign value of type amor arr[int] to arr[int]
// §8.7 amor arr[T] and arr[T] are distinct types
amor arr[int] fast = [1]
arr[int] plain = fast
