for *x in [[1]]:
    pass
