class A:
    x = 1
    y = x / 0
