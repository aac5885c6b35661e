print('%d' % 'x')
