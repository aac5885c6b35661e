def add(a, b):
    return a + b
def total(items):
    return add(items[0], items[1])
total([1, None])
