// expect: 2:36 func[int]:int cannot be parsed from JSON: func[int]:int has no JSON form (§16.4)
arr[func[int]:int] fs = '[]'.toArr(func[int]:int)
