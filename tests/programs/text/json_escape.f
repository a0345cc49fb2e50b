// §8.21 text inside JSON renders escaped: \" \\ \n \t; other characters raw
struct Note {
    body:text
}
arr[text] xs = ['a"b', 'c\\d', 'e\nf', 'tab\there', 'é😀']
log(xs)
Note n = {'body': 'say "hi"'}
log(n)
log(xs[0])
