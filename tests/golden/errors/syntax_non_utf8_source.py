# A byte that is not UTF-8 (here in a comment: é) makes the file a SyntaxError.
print("never printed")
