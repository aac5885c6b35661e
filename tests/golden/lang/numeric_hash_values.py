# hash() of numbers and tuples is CPython's: values modulo 2**61 - 1, equal numbers of any type
# alike, -1 reserved (hash(-1) == -2), infinities 314159, tuples combined as CPython does, and
# what a __hash__ returns kept as is, -1 aside. Strings are left out: CPython randomizes them.
print(hash(1), hash(-1), hash(0), hash(True), hash(False), hash(-2))
BIG = 9223372036854775807  # 2**63 - 1
print(hash(2**61 - 1), hash(2**61), hash(2**62), hash(-(2**62)), hash(BIG), hash(-BIG - 1))
print(hash(1.5), hash(-2.25), hash(0.1), hash(1e300), hash(-1e-300), hash(5e-324))
print(hash(1.0) == hash(1), hash(-1.0), hash(2.0**61), hash(float("inf")), hash(float("-inf")))
print(hash((1, 2)), hash(()), hash((1, (2, 3))), hash((1.5, -1, True)), hash((None,)) == hash((None,)))


class H:
    def __init__(self, value):
        self.value = value

    def __hash__(self):
        return self.value


print(hash(H(7)), hash(H(-1)), hash(H(2**62)), hash(H(-BIG - 1)))
print([k % 7 for k in map(hash, [10**12, -(10**15), 3.75, (4, 5)])])
