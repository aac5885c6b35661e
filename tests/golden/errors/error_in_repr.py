class R:
    def __repr__(self):
        return self.missing
print([R()])
