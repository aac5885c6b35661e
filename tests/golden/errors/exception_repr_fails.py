class R:
    def __repr__(self):
        raise ValueError("no repr")


raise KeyError(R())
