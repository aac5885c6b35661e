items = [1, 2]
i = 0
while items[i] > 0:
    i += 1
