def a(x):
    return b(x) + 1
def b(x):
    return c(x) * 2
def c(x):
    return {}[x]
print('start')
a('key')
