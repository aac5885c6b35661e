# The literal parts of an f-string are decoded like plain literals, with the same errors.
value = 1
print(f"{value} and \u12 more")
