x = 1.5
print(x / 0.0)
