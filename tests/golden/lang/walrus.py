if (n := 10) > 5:
    print("n is", n)
data = [1, 2, 3, 4, 5, 6]
print([y for x in data if (y := x * x) > 10], y)
i = 0
while (i := i + 1) < 4:
    print("i", i)
print((a := 3) + a, a)
def f():
    if (m := max([3, 7, 2])) > 5:
        return m
    return None
print(f())
values = {"a": 1}
if (v := values.get("a")) is not None:
    print("got", v)
if (w := values.get("b")) is None:
    print("missing", w)
print([last := c for c in "xyz"], last)
def g():
    total = [s := 0]
    for k in range(4):
        s = s + k
    return s, total
print(g())
print(len(t := [1, 2]), t)
def h(items):
    return [r for it in items if (r := it.upper()) != "B"]
print(h(["a", "b", "c"]))
print(f"{(z := 5) * 2} {z}")
