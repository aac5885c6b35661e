n = int('x')
