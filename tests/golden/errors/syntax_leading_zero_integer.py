# Decimal integers cannot start with 0 (no C-style octal); zeros alone, floats and 0o are fine.
print(00, 0_0, 0e5, 05.5, 0o17)
x = 017
print(x)
