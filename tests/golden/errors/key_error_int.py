counts = {1: 'x'}
counts[2]
