// expect: 4:1 cannot delete a variable; use 'free xs'
// §10.11 delete on a whole variable is an error naming free
arr[int] xs = [1]
delete xs
