class Layer:
    def __init__(self, size):
        self.size = int(size)
class Model:
    def __init__(self):
        self.layers = [Layer(s) for s in ['4', 'x']]
Model()
