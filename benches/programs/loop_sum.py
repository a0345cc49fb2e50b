# A counted loop around 64-bit multiply, add and modulo.
def main():
    total = 0
    for i in range(100000000):
        total = (total * 1000003 + i) % 1000000007
    print(total)

main()
