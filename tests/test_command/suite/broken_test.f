test b = 'broken'
b(1, 1)
int x = 'not an int'
