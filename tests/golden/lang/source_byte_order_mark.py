# A UTF-8 byte order mark at the start of a script is skipped, as CPython does.
print("after the BOM")
print(len("café"))
