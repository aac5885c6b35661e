class Model:
    def __init__(self):
        self.hidden_size = 4
m = Model()
print(m.hiden_size)
