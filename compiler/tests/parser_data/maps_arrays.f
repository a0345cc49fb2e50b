map[int] ages = {'ann': 31, 'bob': 42}
text key = 'cat'
map[int] more = {key: 3, name, 'x': ages['ann']}
arr[arr[int]] grid = [[1, 2], [3, 4]]
grid[0][1] = 9
ages['zed'] = 1
delete ages['bob']
delete ages.zed
map[text] empty = {}
arr[int] long = [
    1,
    2,
    3,
]
map[int] spread = {
    'a': 1,
    'b': 2
}
