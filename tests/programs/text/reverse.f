// §8.4 iterating code points with s[i] and .length
text func reverse(s:text) {
    text out = ''
    for int i = s.length - 1, i >= 0, i-- {
        out = out + s[i]
    }
    return out
}
log(reverse('héllo'))
log(reverse('a😀b'))
log(reverse(''))
log(reverse('x'))
