x = 1
if (x > 0 and
        x.missing_attr):
    pass
