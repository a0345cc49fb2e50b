// text_processing.f: working with text using only the core language:
// code-point indexing s[i], .length, concatenation, templates and ascii.

// text is UTF-8, but s[i] and .length count code points, never bytes.
text word = 'naïve café'
log(word.length)
log(word[2])

// Reverse by walking the code points backwards.
text func reverse(s:text) {
    text out = ''
    for int i = s.length - 1, i >= 0, i-- {
        out = out + s[i]
    }
    return out
}
log(reverse(word))

// Split into words by scanning for spaces.
arr[text] func words(s:text) {
    arr[text] out = []
    text current = ''
    for int i = 0, i < s.length, i++ {
        if s[i] == ' ' {
            if current.length > 0 {
                out.push(current)
            }
            current = ''
        } else {
            current = current + s[i]
        }
    }
    if current.length > 0 {
        out.push(current)
    }
    return out
}
arr[text] ws = words('  the quick  brown fox ')
log(ws)

// Capitalize with a lookup table. ascii strings store one byte per
// character, so indexing them is O(1).
ascii lower = 'abcdefghijklmnopqrstuvwxyz'
ascii upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
text func capitalize(w:text) {
    text first = w[0]
    for int i = 0, i < lower.length, i++ {
        if lower[i].toText() == first {
            first = upper[i].toText()
            break
        }
    }
    text rest = ''
    for int i = 1, i < w.length, i++ {
        rest = rest + w[i]
    }
    return first + rest
}
text title = ''
for int i = 0, i < ws.length, i++ {
    if i > 0 {
        title = title + ' '
    }
    title = title + capitalize(ws[i])
}
log(title)

// Count vowels, accented ones included.
text vowels = 'aeiouáéíóúïü'
int func countVowels(s:text) {
    int n = 0
    for int i = 0, i < s.length, i++ {
        for int j = 0, j < vowels.length, j++ {
            if s[i] == vowels[j] {
                n++
            }
        }
    }
    return n
}
log(`'${word}' has ${countVowels(word)} vowels`)

// Palindromes, ignoring spaces.
bool func isPalindrome(s:text) {
    text letters = ''
    for int i = 0, i < s.length, i++ {
        if s[i] != ' ' {
            letters = letters + s[i]
        }
    }
    return letters == reverse(letters)
}
log(isPalindrome('never odd or even'))
log(isPalindrome('festina lente'))
