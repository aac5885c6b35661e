words = ["straße", "ÉCOLE", "naïve", "Ωμέγα", "ΣΊΣΥΦΟΣ", "ǅemal", "ﬁnal", "İstanbul", "日本語", "😀 ok"]
for w in words:
    print(w, len(w), w.upper(), w.lower(), w.title(), w.capitalize(), w.swapcase(), w.casefold())
for w in words:
    print(w, w.isalpha(), w.isupper(), w.islower(), w.istitle(), w.isascii(), w.isidentifier(), w.isprintable())
digits = ["123", "١٢٣", "²³", "½", "Ⅻ", "一", "12.5", "", "٣x"]
for d in digits:
    print(repr(d), d.isdigit(), d.isdecimal(), d.isnumeric(), d.isalnum())
spaces = [" ", "\t\n", "\u00a0", "\u2003", "\u3000", "\x1c", "", "a b"]
print([s.isspace() for s in spaces])
print("é" < "z", "É" < "é", sorted(["é", "e", "z", "E", "ö"]), max("abcé"), min("éa"))
print("ü".encode if False else "", ord("€"), chr(8364), "€".center(5, "*"), "{:^7}".format("日本"))
s = "héllo wörld"
print(s.find("ö"), s.index("w"), s[7], s[-4:], s.split("ö"), s.replace("ö", "oe"), s.count("l"))
print(s.startswith("hé"), s.endswith("rld"), s.partition(" "), s.center(15, "·"), s.zfill(14))
print(f"{s!r} {s!a} {s:>14} {s:.3}", repr("ß"), ascii("ß"), "%-13s|" % s)
print("ΑΒΓ".lower(), "αβγ".upper(), "ΣΑΣ".lower(), "ΣΑΣ ΣΑΣ.".lower(), "aΣ".lower(), "Σ".lower())
print("ŉ".upper(), "ǰ".upper(), "ΐ".upper(), "ﬀ".title(), "ß".title(), "ß".capitalize())
print("Ⓐ".lower(), "ⓐ".upper(), "ⓐ".isalpha(), "Ⓐ".isupper(), "ª".islower(), "ª".isupper())
