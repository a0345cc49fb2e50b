// expect: 2:29 unknown type 'Nope'
arr[int] xs = '[]'.toStruct(Nope)
