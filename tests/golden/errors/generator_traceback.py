# An exception raised inside a generator, consumed by a list comprehension: the traceback goes
# through the comprehension into the generator, as CPython 3.11 prints it.
def items():
    yield 1
    x = {}["missing"]
    yield 2

def consume():
    return [v * 2 for v in items()]

consume()
