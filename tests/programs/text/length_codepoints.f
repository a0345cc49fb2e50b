// §8.4 .length counts code points, never bytes
log('hello'.length)
text accented = 'héllo'
text cjk = '日本語'
text emoji = 'a😀b'
log(accented.length)
log(cjk.length)
log(emoji.length)
log(''.length)
log((accented + cjk).length)
