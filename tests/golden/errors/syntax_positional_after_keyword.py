print(sep='', 1)
