// A source file that is not UTF-8: the first bad byte is reported with
// its line and column (issue 10, item 7).
text name = 'café au lait'
log(name)
