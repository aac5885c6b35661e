# A lone surrogate cannot be printed to stdout: UnicodeEncodeError, after "ok " was written.
print("ok", "a\ud800b")
