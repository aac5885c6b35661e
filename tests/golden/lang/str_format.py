print("{} {} {}".format(1, "a", 2.5))
print("{0} {1} {0}".format("x", "y"))
print("{name} is {age}".format(name="Bob", age=5))
print("{0[0]} {0[1]} {1[k]}".format([10, 20], {"k": "v"}))
class O:
    attr = "attribute"
    nested = {"n": [1, 2]}
print("{0.attr} {o.nested[n]}".format(O(), o=O()))
print("{!r} {!s} {!a}".format("s", "s", "é"))
print("{:>8}|{:<8}|{:^8}|{:*^9}".format("r", "l", "c", "s"))
print("{:.3f} {:08.2f} {:+d} {:,} {:x} {:#b}".format(3.14159, 2.5, 5, 1234567, 255, 5))
print("{:{w}.{p}f}|{:>{w}}".format(3.14159, "x", w=10, p=2))
print("{0:{1}}|".format("pad", 6))
print("{{}} {{{}}}".format("in braces"))
print("{0!r:>10}|".format("r"))
print("{} and {}".format(*["star", "args"]), "{a}-{b}".format(**{"a": 1, "b": 2}))
print("{:d}".format(True), "{}".format(None), "{}".format([1.5, "x", None]))
print("{:%}".format(0.25), "{:.1%}".format(1 / 3), "{:e}".format(100))
print("{0}{1}{0}".format("ab", "-"))
print("{:<5}|{:>5}|".format(1, 2.5))
print("{.real}".format(5))
for bad in ["{} {}", "{0} {}", "{x}", "{0[2]}", "{", "}", "{:d}", "{!z}", "{0.missing}"]:
    try:
        print(bad.format("only") if bad != "{0[2]}" else bad.format([1]))
    except (IndexError, KeyError, ValueError, AttributeError) as e:
        print(type(e).__name__, e)
print(format(3.5), format("s"), format(42, "b"))
# format_map
print("{a} {b}".format_map({"a": 1, "b": 2}))
