// expect: 3:14 operator < cannot be applied to text and text
// §9.8 relational operators require numbers
bool b = 'a' < 'b'
