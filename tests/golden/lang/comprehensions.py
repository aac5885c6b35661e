print([x * x for x in range(6)])
print([x for x in range(20) if x % 3 == 0 if x % 2 == 0])
print([(x, y) for x in range(3) for y in range(x)])
print([[j for j in range(i)] for i in range(4)])
print({k: v for k, v in [("a", 1), ("b", 2)]})
print({x: x ** 2 for x in range(5) if x != 2})
print({v: k for k, v in {"x": 1, "y": 2}.items()})
print(list(x + 1 for x in [1, 2, 3]))
print(sum(x for x in range(101)), max(len(w) for w in ["a", "abc", "ab"]))
print(tuple(c.upper() for c in "abc"), sorted(x % 4 for x in range(10)))
print(any(x > 3 for x in [1, 2, 5]), all(x > 0 for x in [1, 2, -1]))
# comprehension variable does not leak
x = "outer"
squares = [x for x in range(3)]
print(x, squares)
# comprehensions see enclosing function locals
def f(n):
    m = 10
    return [i * m for i in range(n)]
print(f(3))
# nested comprehension over matrix
matrix = [[1, 2, 3], [4, 5, 6]]
print([[row[i] for row in matrix] for i in range(3)])
print([v for row in matrix for v in row])
# comprehension with tuple unpacking and enumerate
print([i * v for i, v in enumerate([5, 6, 7])])
print([a + b for a, (b, c) in [(1, (2, 3)), (4, (5, 6))]])
# comprehension with walrus
print([y for x in range(6) if (y := x * 2) > 4], y)
# comprehension with conditional expression
print(["even" if i % 2 == 0 else "odd" for i in range(4)])
# dict comprehension preserves key order of first insertion
print({c: i for i, c in enumerate("abcab")})
# generator expression passed to functions
print(list(zip((i for i in range(3)), "xyz")))
print(dict((k, len(k)) for k in ["aa", "b"]))
print(", ".join(str(i) for i in range(5)))
# class-body comprehension can only see its iterable of the class scope
class C:
    base = [1, 2, 3]
    doubled = [v * 2 for v in base]
print(C.doubled)
# comprehension calling a function defined later in module
def helper(v):
    return -v
print([helper(i) for i in range(3)])
# comprehension with side effects in the iterable evaluated once
calls = []
def src():
    calls.append(1)
    return [1, 2, 3]
print([v for v in src()], len(calls))
# nested comprehension where inner iterable uses outer variable
print([(i, j) for i in range(3) for j in range(i, 3)])
# list comprehension on strings and dicts
print([ch for ch in "hello" if ch not in "l"])
d = {"a": 1, "b": 2, "c": 3}
print([k for k in d if d[k] > 1], {k: d[k] for k in sorted(d, reverse=True)})
# comprehension with a closure inside it
fns = [lambda: i for i in range(3)]
print([fn() for fn in fns])
