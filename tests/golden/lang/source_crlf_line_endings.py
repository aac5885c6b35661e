# Lines that end with CR LF (Windows style), also mixed with LF.
x = 2
if x:
    print("CRLF line endings", x)
print(repr("""a
b"""))
