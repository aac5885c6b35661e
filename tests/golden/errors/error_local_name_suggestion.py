def f():
    counter = 1
    return countr + 1
f()
