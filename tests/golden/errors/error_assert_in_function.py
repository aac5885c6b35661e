def check(x):
    assert x > 0, f'bad value {x}'
    return x
for v in [1, 2, -3]:
    check(v)
