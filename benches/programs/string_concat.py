# Repeated appends to one string: s = s + piece.
def main():
    s = ""
    for i in range(15000):
        s = s + "abcdefghij"
    print(len(s))

main()
