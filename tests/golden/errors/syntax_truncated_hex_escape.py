# A truncated \x escape is a SyntaxError (CPython's unicode-escape codec message).
print("before")
print("\x4")
