// expect: 3:11 operator + cannot be applied to text and int (column counted in code points)
// §14.1 the column counts code points, not bytes
log('日本語' + 1)
