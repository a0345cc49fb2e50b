// The parameters must be an array literal (§15.4).
DatabaseURL = ':memory:'
arr[int] ids = [1]
sqlite('SELECT ?', ids)
