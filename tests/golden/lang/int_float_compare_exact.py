# An int and a float compare by value, exactly, past 2**53 (where converting the int to a
# double would round it): ordering, equality, sorting, min/max, membership and dict keys.
BIG = 2**53 + 1
F = 2.0**53
print(BIG == F, BIG != F, BIG > F, BIG >= F, BIG < F, F < BIG, F == BIG)
print(2**53 == F, 2**53 <= F, hash(2**53) == hash(F))
M = 9223372036854775807  # 2**63 - 1
print(M < 2.0**63, M == 2.0**63, 2.0**63 > M, M > 9.223372036854775e18)
print(-M - 1 == -(2.0**63), -M - 1 < -(2.0**63), -M > -(2.0**63))
print(3 < 3.5, 3 > 2.5, -3 < -2.5, -3 > -3.5, 4 == 4.0, 4 < 4.0000001)
print(BIG < float("inf"), BIG > float("-inf"), BIG == float("nan"), BIG < float("nan"))
print(sorted([F, BIG, 2**53 - 1, 2**53]))
print(max(BIG, F), min(F, BIG), max(F, 2**53))
print(BIG in [F], F in [BIG], 2**53 in [F])
d = {F: "float"}
print(d.get(2**53), d.get(BIG))
print((BIG, 1) > (F, 2), [F] < [BIG])
