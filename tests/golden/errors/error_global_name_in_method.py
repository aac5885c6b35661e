class A:
    def f(self):
        return helper()
A().f()
