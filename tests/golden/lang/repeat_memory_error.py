# A repetition too large to build is a MemoryError raised before any memory is used (CPython
# fails its allocation); one whose length Py_ssize_t cannot count is an OverflowError for str.
def attempt(label, make):
    try:
        make()
        print(label, "built")
    except (MemoryError, OverflowError) as e:
        print(label, type(e).__name__, repr(str(e)))


attempt("str", lambda: "a" * 10**12)
attempt("str reflected", lambda: 10**12 * "ab")
attempt("str overflow", lambda: "ab" * 2**62)
attempt("list", lambda: [0] * 10**12)
attempt("list overflow", lambda: [0, 1] * 2**62)
attempt("tuple", lambda: (1, 2) * 10**12)
attempt("ljust", lambda: "x".ljust(10**12))
attempt("center", lambda: "x".center(10**12, "-"))
attempt("zfill", lambda: "7".zfill(10**12))
xs = [1, 2]
try:
    xs *= 10**12
except MemoryError:
    print("list *= MemoryError", xs)
print("a" * 3, [0] * 3, (1,) * 2, "ab" * -1, [1] * 0, "" * 10**12, [] * 10**12)
