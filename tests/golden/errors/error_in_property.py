class A:
    @property
    def value(self):
        return self._value
A().value
