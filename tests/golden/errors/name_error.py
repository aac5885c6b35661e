def f():
    return undefined_var + 1
print('before')
f()
