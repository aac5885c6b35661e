a = 1
b = 0
print(a / b)
