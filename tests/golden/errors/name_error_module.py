x = 1
print(y)
