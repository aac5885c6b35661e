class A:
    def f(self, x):
        return x
A().f(1, 2)
