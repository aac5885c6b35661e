s = 'abc'
s[10]
