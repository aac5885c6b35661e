def level(n):
    if n == 0:
        raise ValueError('bottom')
    return level(n - 1)
level(5)
