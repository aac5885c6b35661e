x = 1
assert x == 2
