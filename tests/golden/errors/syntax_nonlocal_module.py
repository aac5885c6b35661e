x = 1
nonlocal y
