// expect: 4:4 'push' takes 1 argument but 2 were given
// §9.4 builtins are checked too: push takes one argument
arr[int] xs = []
xs.push(1, 2)
