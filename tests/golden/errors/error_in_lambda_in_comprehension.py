fs = [lambda x: x / 0 for _ in range(2)]
print([f(1) for f in fs])
