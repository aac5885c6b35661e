first, *rest = [1, 2, 3, 4]
print(first, rest)
*init, last = "abcd"
print(init, last)
a, *mid, z = range(6)
print(a, mid, z)
a, *mid, z = [1, 2]
print(a, mid, z)
(x, *ys), w = [1, 2, 3], 4
print(x, ys, w)
*everything, = (1, 2)
print(everything)
try:
    a, *b, c = [1]
except ValueError as e:
    print("ValueError", e)
print([*range(3), *"ab", *[None]])
print((*[1, 2], 3), [*()], (*"x",))
print({**{"a": 1}, "b": 2, **{"a": 3}})
def f(*args, **kwargs):
    return args, kwargs
print(f(*[1, 2], 3, *(4,), x=1, **{"y": 2}))
d1 = {"p": 1}
d2 = {"q": 2}
print({**d1, **d2}, f(**d1, **d2))
print(*[1, 2, 3])
print(*"abc", sep="-")
print(*[], "only")
nested = [[1, 2], [3]]
print([*nested[0], *nested[1]])
head, *tail = "x"
print(head, tail)
for a, *b in [(1, 2, 3), (4, 5)]:
    print(a, b)
try:
    print(*5)
except TypeError as e:
    print("TypeError", e)
try:
    print({**[1]})
except TypeError as e:
    print("TypeError", e)
try:
    f(**{1: 2})
except TypeError as e:
    print("TypeError", e)
