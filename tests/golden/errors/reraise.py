try:
    int('bad')
except ValueError:
    print('handling')
    raise
