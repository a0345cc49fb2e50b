// text.slice(start, end): code points [start, end), both ends clamped to
// [0, length]; empty when end <= start (not null).
text s = 'Hello, World'
log(s.slice(0, 5))
log(s.slice(7, 99))
log(s.slice(0 - 4, 2))
log(s.slice(5, 2) == '')
log(s.slice(5, 2) == null)
log(s.slice(99, 99) == '')
text u = 'héllo wörld'
log(u.length)
log(u.slice(0, 5))
log(u.slice(1, 2))
log(u.slice(6, u.length))
