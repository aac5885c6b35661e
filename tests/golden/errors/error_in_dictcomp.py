keys = ['a', 'b']
d = {k: int(k) for k in keys}
