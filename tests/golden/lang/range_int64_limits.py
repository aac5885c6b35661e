# range() at the edges of 64-bit integers: lengths, iteration, membership and reversal must be
# exact (no wrap-around, no endless loop), as CPython's arbitrary-precision ranges are.
BIG = 9223372036854775807  # 2**63 - 1 (2**63 itself is past 64-bit ints)
SMALL = -BIG - 1

print(list(range(BIG - 2, BIG)))
print(list(range(SMALL, SMALL + 3)))
print(list(range(SMALL + 2, SMALL - 0, -1)))
print(list(range(BIG - 5, BIG, 2)))
print([x for x in range(BIG - 3, BIG)])
print(list(reversed(range(BIG - 3, BIG))))
print(list(reversed(range(SMALL, SMALL + 9, 4))))
print(len(range(0, BIG)), len(range(SMALL + 1, 0)), len(range(BIG, SMALL, -BIG)))
print(BIG - 1 in range(0, BIG), BIG in range(0, BIG), SMALL in range(SMALL, BIG, 3))
print(BIG - 1 in range(SMALL, BIG, BIG), 0 in range(BIG, SMALL, -BIG))
it = iter(range(BIG - 1, BIG))
print(next(it), next(it, "done"))
print(range(SMALL, BIG, 3)[-1], range(SMALL, BIG, 3)[1], bool(range(SMALL, BIG)))
for i in range(BIG, BIG - 7, -3):
    print("step", i)
try:
    len(range(SMALL, BIG))
except OverflowError as e:
    print("OverflowError:", e)
