x = 42
pi = 3.14159265
name = "kiln"
items = [1, 2.5, "s"]
print(f"x={x} pi={pi} name={name} items={items}")
print(f"{x!r} {name!r} {name!s} {name!a} {'é'!a}")
print(f"{pi:.2f} {x:05d} {x:>8} {x:<8}| {x:^8}| {name:*^10}")
print(f"{x:x} {x:X} {x:o} {x:b} {x:#x} {x:#b} {x:,} {1234567:_}")
print(f"{pi:10.3f}|{pi:<10.3f}|{pi:e}|{pi:.3g}|{pi:%}|{0.5:.0%}")
width, prec = 10, 3
print(f"{pi:{width}.{prec}f}|{name:>{width}}|")
print(f"{x=} {pi=:.2f} {name=!r} {x + 1 = }")
print(f"{{literal braces}} {{{x}}}")
print(f"{'nested' + ' expr'} {[i * 2 for i in range(3)]} {dict(a=1)}")
print(f"{x if x > 10 else 0} {(lambda v: v + 1)(x)}")
print(f"{items[0]} {items[-1]} {name.upper()} {len(items)}")
print(f"multi {x} " f"concat {name}" " plain")
print(F"upper F {x}")
print(rf"raw \n {x}", fr"\t{name}")
print(f"{True} {None} {False!r}")
print(f"{-0.0} {1e16} {1e-7} {0.1 + 0.2}")
print(f"{3:3}|{'ab':3}|{2.5:6}|{True:5}|")
print(f"""triple {x}
second line {name}""")
print(f'single {name!r:>10}')
d = {"key": "value"}
print(f"{d['key']} {d}")
print(f"{x:+} {-x:+} {x: } {pi:+.1f}")
print(f"{1000000:,.2f} {0.000123:.2e} {123.456:g} {1e20:g} {1.5e-10:g}")
print(f"{'left':<{width}}|{'right':>{width}}|")
class P:
    def __format__(self, spec):
        return "P[" + spec + "]"
    def __str__(self):
        return "P-str"
    def __repr__(self):
        return "P-repr"
print(f"{P()} {P():xyz} {P()!r} {P()!s}")
print(f"{'tab':\t^9}|")
print(f"{12:#010x} {-12:#x} {255:08b}")
print(f"{3.0} {3.0:.0f} {2.5:.0f} {3.5:.0f} {-2.5:.0f}")
print(f"{'abc':.2} {'abcdef':>8.3}|")
