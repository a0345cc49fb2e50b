// expect: 3:26 expected a type here, such as User or arr[int] (§9.4)
int n = 5
arr[int] xs = '[]'.toArr(n + 1)
