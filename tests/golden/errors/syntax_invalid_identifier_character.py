# A character that is not a letter, digit or underscore cannot be part of a name.
print("never printed")
price€ = 3
