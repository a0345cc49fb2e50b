arr[int] xs = '[1,2]'.toArr(arr[int])
User u = '{}'.toStruct(User)
int n = '5'.toArr(int).length
