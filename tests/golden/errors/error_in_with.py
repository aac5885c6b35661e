class CM:
    def __enter__(self):
        return self
    def __exit__(self, *args):
        print('exit called')
        return False
with CM():
    raise KeyError('inside with')
