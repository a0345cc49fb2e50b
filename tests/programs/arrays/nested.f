// §8.7 arrays of arrays; an inner array is shared, not copied
arr[arr[int]] grid = [[1, 2], [3]]
grid[1].push(4)
grid.push([])
grid[2].push(5)
log(grid)
log(grid[0][1])
log(grid.length)
log(grid[1].length)
arr[int] row = grid[0]
row.push(99)
log(grid[0])
