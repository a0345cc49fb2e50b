# Walk a ~1.7 MB ascii text counting identifier runs ([A-Za-z0-9_]+).
# The text is generated deterministically (a 1,700-character chunk from a
# small LCG, doubled ten times: 1,740,800 bytes), identically in every
# language.
def main():
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ .,;(){}=+-*/"
    s = ""
    seed = 42
    for k in range(1700):
        seed = (seed * 75 + 74) % 65537
        s = s + alphabet[seed % len(alphabet)]
    for d in range(10):
        s = s + s

    runs = 0
    inword = False
    n = len(s)
    for i in range(n):
        c = ord(s[i])
        w = (c >= 97 and c <= 122) or (c >= 65 and c <= 90) or (c >= 48 and c <= 57) or c == 95
        if w and not inword:
            runs += 1
        inword = w
    print(f"{n} {runs}")

main()
