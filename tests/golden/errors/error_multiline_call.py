def f(a, b):
    return a / b
result = f(
    1,
    0,
)
