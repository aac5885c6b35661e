def make():
    x = []
    def get(i):
        return x[i]
    return get
g = make()
g(0)
