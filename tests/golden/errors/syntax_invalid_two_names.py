print(1)
x = a b
