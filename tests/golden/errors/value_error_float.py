float('abc')
