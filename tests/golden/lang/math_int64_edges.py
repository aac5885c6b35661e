# Integer math at the top of int64: exact where the result fits (isqrt once looped forever
# at 2**63 - 1, comb overflowed in its partial products).
import math

print(math.isqrt(9223372036854775807), math.isqrt(9223372036854775806), math.isqrt(0))
print(math.comb(60, 30), math.comb(62, 31), math.comb(10, 3))
print(math.lcm(4, 6, 10), math.lcm(0, 5), math.lcm(2**31, 3**19))
