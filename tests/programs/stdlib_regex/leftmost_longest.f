// §8.15: a regex is a POSIX ERE, which matches leftmost-longest: among
// the matches that start leftmost, the longest wins, whatever the order
// of the alternatives.
log('ab'.match(/a|ab/))
log('abcd'.match(/(a|ab)(c|bcd)/))
log('xfoofoo'.match(/foo|foofoo/))
log('say HELLO there'.match(/hell|hello/i))
log('xbabcdef'.match(/b|abcdef/))
log('one two'.replace(/o|on|one/, '#'))
log('a-b--c---d'.replace(/-|--|---/g, '+'))
log('a--b-c'.split(/-|--/))
log(/a|ab/.test('ab'))
log('café au lait'.match(/é|é au/))
