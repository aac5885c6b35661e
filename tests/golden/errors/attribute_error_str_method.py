s = 'abc'
s.push('d')
