x = [1]
x.remove(5)
