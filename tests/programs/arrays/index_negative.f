// our runtime: a negative array index is out of range too
arr[text] xs = ['a', 'b', 'c']
int i = 0
i = i - 1
text t = xs[i]
log('never')
