# Identifiers may use non-ASCII letters (PEP 3131): XID_Start then XID_Continue characters.
café = 1
αβ = 2
名前 = "名"
_größe = 3.5
x١٢ = 12  # Arabic-Indic digits continue an identifier
print(café + αβ, 名前, _größe, x١٢)


class Äpfel:
    anzahl = 7

    def größe(self, maß=2):
        return "groß" * maß


ä = Äpfel()
print(ä.größe(), ä.größe(maß=1), Äpfel.__name__, getattr(ä, "größe")(), ä.anzahl)
print(f"{café=} {αβ + 1}")
print([δ * 2 for δ in range(3)], (lambda λ: λ + 1)(1))
try:
    print(ñame_undefined)
except NameError as e:
    print(e)
print(sorted(k for k in vars(Äpfel) if not k.startswith("__")))
