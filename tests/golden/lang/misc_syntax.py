a = 1; b = 2; print(a + b)
if a: print("inline if"); print("second stmt")
for i in range(2): print("inline for", i)
while False: pass
def empty(): pass
class Empty: pass
print(empty(), Empty.__name__)
total = (1 +
         2 +
         3)
print(total)
items = [
    1,
    2,
    3,  # trailing comma and comment
]
print(items)
mapping = {
    "a": 1,
    "b": 2,
}
print(mapping)
long_expr = 1 + \
    2 + \
    3
print(long_expr)
def f(
    a,
    b=2,
):
    return a + b
print(f(
    1,
))
print(...)
print(Ellipsis, ... is Ellipsis, type(...).__name__)
x: int = 5
y: list
print(x, "y" in dir() if False else "")
def annotated(a: int, b: "str" = "s") -> str:
    return str(a) + b
print(annotated(1), annotated(2, "t"))
"""module-level docstring-like string expression"""
def documented():
    """Function docstring."""
    return documented.__doc__
print(documented())
class Doc:
    """Class docstring."""
print(Doc.__doc__, empty.__doc__)
# comments everywhere
print("comment test")  # trailing
# pass in various blocks
for _ in range(1):
    pass
try:
    pass
except Exception:
    pass
finally:
    pass
print(NotImplemented, type(NotImplemented).__name__, None.__class__.__name__)
# expression statements
1 + 1
"discarded"
[1, 2]
# nested parentheses and tuples
print(((((1)))), ((1,)), (((1, 2),),))
# unary chains and precedence
print(-2 ** 2, (-2) ** 2, not not True, - - - 3, 2 * 3 + 4 * 5 - 6 / 2, 2 ** 3 ** 2, (2 ** 3) ** 2)
print(1 + 2 * 3 % 4 - 5 // 2, 10 - 2 - 3, 100 / 10 / 5, 2 + 3 > 4 and 1 < 2, 1 if 0 else 2 if 1 else 3)
print(3 - -3, 3 + -3, 5 * -1, -3 % 5, 7 & 3 == 3, (7 & 3) == 3)
print("a" "b" * 2, ("a" "b") * 2, [1] * 2 + [3], -1 ** 0.5 if False else "neg-pow-skip")
lst = [1, 2, 3,]
tpl = 1, 2,
print(lst, tpl)
def trailing(*args,): return args
print(trailing(1, 2,))
print(type(lambda: None).__name__, (lambda: None)())
