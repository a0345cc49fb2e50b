// Keys that render alike are one key: a literal may not give it twice.
map[int] m = {7: 1, '7': 2}
