# round() of an int to tens, hundreds, ...: exact integer arithmetic with halves to even, also
# past 2**53 where a float would lose digits.
for v in [15, 25, 35, -15, -25, 5, -5, 0, 149, 150, 250, -250, 999]:
    print(v, round(v, -1), round(v, -2), round(v, -3))
print(round(123456789123456789, -5), round(-123456789123456789, -5))
print(round(2**62 + 1, -1), round(2**62 + 5, -1), round(2**62 + 15, -1))
print(round(4999999999999999999, -19), round(-4999999999999999999, -19), round(7, -25))
print(round(12, 3), round(-7, 0), type(round(15, -1)).__name__)
