class A:
    def f(self):
        return 1 + None
class B(A):
    def f(self):
        return super().f()
B().f()
