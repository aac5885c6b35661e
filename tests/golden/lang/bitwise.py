a, b = 0b1100, 0b1010
print(a & b, a | b, a ^ b, ~a, a << 2, a >> 2, -a >> 1, -1 >> 10, 1 << 40, ~0, ~-1)
print(bin(a & b), hex(a | b), oct(a ^ b), -17 & 0xFF, -17 | 3, -17 ^ 3, 5 & -2)
print(True & False, True | False, True ^ True, ~True, True << 3, type(True & True).__name__, type(True & 1).__name__)
print(0xFF, 0o17, 0b11, 1_000_000, 0x_ff, 255 == 0xff)
print((1 << 62) >> 61, (7 >> 1) << 1, 12345 & (1 << 4) - 1)
for bad in [lambda: 1.5 & 1, lambda: 1 << -1, lambda: "a" | 1, lambda: ~1.5, lambda: [1] ^ [2]]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
flags = 0
for bit in (1, 4, 16):
    flags |= bit
print(flags, flags & 4 != 0, flags & 2 != 0, bin(flags).count("1"))
print(int.bit_length(255), (1023).bit_length(), (0).bit_length(), (-8).bit_length())
print(1 << 3 + 1, 1 + 2 << 1, 6 & 3 | 8, 6 | 3 & 8, 6 ^ 3 & 1, -2 ** 2 & 7)
