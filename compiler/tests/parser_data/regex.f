regex r = /ab+c/i
bool m = 'abbc'.test(/b+/g)
text s = 'a/b'.replace(/[/]/g, '-')
float half = 10 / 2 / 5
int x = (4) / 2
log(s.match(/x\/y/) == null)
arr[text] parts = s.split(/,\s*/)
