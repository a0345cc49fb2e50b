// expect: 5:7 operator != cannot compare two arr[int] values
// §9.8 comparing two arrays is an error
arr[int] a = [1]
arr[int] b = [1]
log(a != b)
