def key(x):
    return x['k']
sorted([{'k': 1}, {}], key=key)
