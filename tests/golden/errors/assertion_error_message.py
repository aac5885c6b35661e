x = [1, 2]
assert len(x) == 3, f'expected 3, got {len(x)}'
