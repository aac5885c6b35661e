print("tab:\t|newline:\\n|backslash:\\|quote:\"|apos:\'")
print('a\tb', "c\nd", "bell?\a"[:5], "nul:\0:" == "nul:\x00:", len("\0"))
print("\x41\x62\u00e9\U0001F600\101\60")
print(r"raw\n\t\x41", R"RAW\d", r"\\", len(r"\n"))
print("adjacent" "strings" 'concatenate', "a" 'b' """c""")
print("""multi
line "string" with 'quotes'
""", end="")
print('''another\
 continued line''')
s = "line one \
line two"
print(s)
print(repr("\t\n\r\x0b\x0c"), repr("\x7f\x80\xa0\xad"), repr("\u2028\ud7ff"), repr("é" * 2))
print(repr("a'b"), repr('a"b'), repr("a'b\"c"), repr("\\n"), repr(r"\d+"))
print("unicode: ñ ü ß 中文 한국어 العربية", len("中文"), "中文"[0], ord("中"), chr(20013))
print("emoji: 😀", len("😀x"), "😀x"[1], "😀".encode if False else "")
print("combined é".upper(), "ǅ".lower(), "İ".lower() == "i̇", len("İ".lower()))
print(str("x") + 'y', "%s" % "\u00e9")
print("\\x41 is", "\x41", "; \\u0041 is", "\u0041", "; octal \\101 is", "\101")
print("%r" % "tab\t", "{!r}".format("nl\n"), f"{'q' + chr(10)!r}")
print(ascii("héllo 😀"), ascii(["é"]), repr(["é", "\n"]))
print("a\
b")
x = ("implicit "
     "continuation "
     f"with {1 + 1}")
print(x)
print("\"", '\'', "'", '"', "\\'")
print("%c%c" % (0x41, 0xe9), chr(0x263A), "\u263a" == chr(9786))
print("é".isascii(), "abc".isascii())
