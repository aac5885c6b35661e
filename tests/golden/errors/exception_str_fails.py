class E(Exception):
    def __str__(self):
        raise ValueError("bad")


raise E()
