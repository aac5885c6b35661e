# -*- coding: latin-1 -*-
# A declared encoding that agrees with UTF-8 on ASCII-only text is harmless.
print("ascii only")
