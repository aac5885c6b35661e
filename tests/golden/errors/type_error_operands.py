x = 1
y = 'a'
z = x + y
