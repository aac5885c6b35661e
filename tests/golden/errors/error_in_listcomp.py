data = [1, 2, 0]
r = [10 / v for v in data]
