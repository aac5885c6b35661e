# Idioms that model scripts use: formatting numbers, zip(*m), max by key, star unpacking, sorting.
x = 3.14159
print(f"{x:>10.4f}|{x:<8.2e}|{1234567.891:,.2f}|{-5:05d}|{'s':*>4}")
print("ab" * -1, [1] * -2, "".join(reversed("abc")), sum([0.5, 1], start=0.25))
m = [[1, 2, 3], [4, 5, 6]]
print(list(zip(*m)), [list(r) for r in zip(*m)], dict(enumerate("ab", start=1)))
d = {"a": 3, "b": 7, "c": 5}
print(max(d, key=d.get), min(d.items(), key=lambda kv: kv[1]), sorted(d, key=lambda k: -d[k]))
a, *b, c = range(6)
print(a, b, c, *b, sep=", ")
try:
    import not_a_module_here
except ImportError as e:
    print("ImportError", e)
class A: pass
A.x = 1
a = A()
print(a.x, A.x, getattr(A, "x"))
f = lambda *args, **kw: (sum(args), sorted(kw))
print(f(1, 2, 3, z=1, a=2))
print(isinstance(True, int), issubclass(bool, int), True + 1, type(True + 1).__name__)
print("%5.1f%%" % 99.5, "%-5s|%5s" % ("ab", "cd"), "%03d" % 7, "%+.2e" % 12345.6789)
print(str(1/3)[:6], repr(1e-7), 1e21, 1e-7 * 10, 123456789.123456789)
nums = [3, 1, 2]
nums.sort(key=lambda v: -v)
print(nums, sorted(nums, key=str), list(map(lambda p: p * 2, nums)))
print({k: v for k, v in sorted(d.items(), key=lambda kv: kv[1], reverse=True)})
s = "The quick brown fox"
print(s.lower().split(), s[::-1], s.find("quick"), s.replace(" ", "_"), s.title(), len(s.split()))
print(" | ".join(f"{k}={v:.1f}" for k, v in d.items()))
print(f"{'nested ' + str(len([1, 2]))!r:>20}")
print(bool([]) or "empty", [] or {} or 0 or "last", 0 and 1)
print(list(filter(None, [0, 1, "", "a", None, [], [0]])))
print(tuple(i ** 2 for i in range(4)))
print(round(2.5), round(3.5), round(-0.5), round(0.125, 2), round(0.375, 2), f"{0.125:.2f}", f"{2.5:.0f}")
w = [1, 2, 3, 4, 5]
w[1:3] = []
print(w, w[::-2], w[-2:], w[:-2])
print(divmod(-7, 2), -7 // 2, -7 % 2, 7 % -2, -7.5 // 2, -7.5 % 2)
