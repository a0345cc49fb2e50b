// §8.5 indexing ascii yields one-character ascii values that compare by content
ascii word = 'hello world'
ascii l = 'l'
int n = 0
for int i = 0, i < word.length, i++ {
    if word[i] == l {
        n++
    }
}
log(n)
