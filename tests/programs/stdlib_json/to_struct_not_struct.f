// expect: 2:22 'toStruct' needs a struct type, found int; use toArr for arrays (§16.4)
int n = '1'.toStruct(int)
