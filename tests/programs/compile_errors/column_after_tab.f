// expect: 4:10 cannot assign value of type text to int
// §14.1 a tab is one code point in the column count
if true {
	int x = 'a'
}
