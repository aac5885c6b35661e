values = [
    1,
    2 / 0,
    3,
]
