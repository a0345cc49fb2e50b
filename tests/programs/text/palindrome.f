// §8.4 two-pointer scan over code points
bool func isPalindrome(s:text) {
    int i = 0
    int j = s.length - 1
    while i < j {
        if s[i] != s[j] {
            return false
        }
        i++
        j--
    }
    return true
}
log(isPalindrome('racecar'))
log(isPalindrome('été'))
log(isPalindrome('festina'))
log(isPalindrome(''))
