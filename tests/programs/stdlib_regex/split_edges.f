// split with a regex: empty pieces kept; an empty match at either end
// does not split
log('abc'.split(/x*/))
log(''.split(/,/))
log(',a,'.split(/,/))
log('a1b'.split(/[0-9]*/))
log('a  b'.split(/ /))
