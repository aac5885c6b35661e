# Replacing a method of a built-in type is a TypeError, as in CPython.
print("before")
setattr(object, "__repr__", lambda self: "patched")
