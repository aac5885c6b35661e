t = (1,)
print(t[-2])
