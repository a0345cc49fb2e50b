# 2,000,000 fresh 8-element arrays, each summed by index.
def main():
    total = 0
    for i in range(2000000):
        a = [i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7]
        for j in range(len(a)):
            total = total + a[j]
    print(total)

main()
