s = 'abc
print(s)
