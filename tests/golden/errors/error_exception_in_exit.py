class CM:
    def __enter__(self):
        return self
    def __exit__(self, *a):
        raise RuntimeError('exit failed')
with CM():
    pass
