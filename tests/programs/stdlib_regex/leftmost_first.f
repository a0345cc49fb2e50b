// Matching is leftmost-first (docs/regex.md), not POSIX leftmost-longest
log('ab'.match(/a|ab/))
log('ab'.match(/ab|a/))
log('aaa'.match(/a*/))
