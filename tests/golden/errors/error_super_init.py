class A:
    def __init__(self, x):
        self.x = x
class B(A):
    def __init__(self):
        super().__init__()
B()
