big = 9223372036854775807
small = -9223372036854775807 - 1
print(big, small, big - 1, small + 1, -big, big // 2, big % 10, small // 10, small % 10)
print(2 ** 62, 2 ** 62 + (2 ** 62 - 1), 10 ** 18, 3 ** 39, 7 ** 22)
print(big == 2 ** 62 * 2 - 1 if False else "skip", big > 2 ** 62, float(big), int(float(2 ** 53)))
print(abs(small + 1), hex(big), bin(2 ** 40), oct(big), big.bit_length(), (small + 1).bit_length())
print(1 << 62, (1 << 62) >> 61, big >> 62, small >> 63, ~big, ~small, big & small, big | small, big ^ 0xFF)
print(sum(range(10 ** 6)), sum(range(-10 ** 5, 10 ** 5)), 123456789 * 987654321, 99999 ** 3)
print(divmod(big, 7), divmod(small, 7), divmod(-big, -7), pow(3, 30), pow(2, 62, 10 ** 9 + 7))
print(int("9223372036854775807"), int("-9223372036854775808"), str(small), repr(big), f"{big:,}", f"{small:_}")
print(round(big, -18) if False else "skip", round(123456789, -3), round(-123456789, -5), round(5555, -1))
print(2 ** 31 * 2 ** 31, (2 ** 32) ** 1, 46341 * 46341, 3037000499 * 3037000499)
