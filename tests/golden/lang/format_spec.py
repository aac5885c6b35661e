vals = [0, 1, -1, 42, 123456789, 3.0, -2.5, 0.1, 1e-9, 1.5e300, 123.456, float("inf"), float("-inf"), float("nan")]
for v in vals:
    print(repr(v), format(v, ""), format(v, ">12"), format(v, "<10") + "|", format(v, "^11") + "|")
for v in [0.0, 1.0, -1.5, 3.14159, 1234.5678, 1e-5, 1e16, 2.675]:
    print(format(v, ".2f"), format(v, ".3e"), format(v, ".4g"), format(v, "g"), format(v, "10.1f"),
          format(v, "+.2f"), format(v, ".0%"), format(v, "E"), format(v, "G"), format(v, "n"))
for v in [0, 7, -7, 255, 65535, 10 ** 12]:
    print(format(v, "d"), format(v, "+d"), format(v, " d"), format(v, "x"), format(v, "#X"),
          format(v, "o"), format(v, "#o"), format(v, "b"), format(v, ","), format(v, "_"),
          format(v, "010d"), format(v, "<6d") + "|", format(v, "=+8d"), format(v, "e"), format(v, ".2f"))
print(format("text", "10"), format("text", ">10"), format("text", "^10"), format("text", ".2"))
print(format("text", "*<8"), format("text", "0>8"), format(True, "d"), format(True, ""), format(None, ""))
print(format(1234.5, ",.2f"), format(1234567.891, "_.1f"), format(0.5, "%"), format(-0.0, ".1f"))
print(format(12, "c") if False else "", format(65, "c"), format(3, "08.3f"), format(-3, "08.3f"))
print(format(2 ** 53, ".3e"), format(1 / 3, ".15g"), format(1 / 3, ".17g"), format(2 / 3, ".1f"))
print(format(0.125, ".2f"), format(0.375, ".2f"), format(1.005, ".2f"), format(2.5, ".0f"), format(0.5, ".0f"))
for bad in [("x", "d"), (1.5, "d"), ("s", ".2f"), (1, "q")]:
    try:
        format(*bad)
    except ValueError as e:
        print("ValueError:", e)
try:
    format(3, "s")
except ValueError as e:
    print("ValueError:", e)
