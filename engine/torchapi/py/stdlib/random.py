# random for Kiln workloads: CPython's generator (the Mersenne Twister MT19937 seeded through
# init_by_array, as CPython's _random does) and CPython's algorithms on top of it, so a seeded
# script draws the same numbers as under CPython. Seeds are ints (or None: the clock);
# CPython's str/bytes seeding (through SHA-512) is not provided.
import math as _math
import time as _time

_N = 624
_M = 397
_MASK = 0xFFFFFFFF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_MATRIX_A = 0x9908B0DF
NV_MAGICCONST = 4 * _math.exp(-0.5) / _math.sqrt(2.0)
TWOPI = 2.0 * _math.pi
LOG4 = _math.log(4.0)
SG_MAGICCONST = 1.0 + _math.log(4.5)
BPF = 53
RECIP_BPF = 2 ** -BPF


class Random:
    VERSION = 3

    def __init__(self, x=None):
        self._mt = [0] * _N
        self._index = _N + 1
        self.gauss_next = None
        self.seed(x)

    def _init_genrand(self, s):
        mt = self._mt
        mt[0] = s & _MASK
        for i in range(1, _N):
            prev = mt[i - 1]
            mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _MASK
        self._index = _N

    def _init_by_array(self, key):
        self._init_genrand(19650218)
        mt = self._mt
        i, j = 1, 0
        for _ in range(max(_N, len(key))):
            prev = mt[i - 1]
            mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & _MASK
            i += 1
            j += 1
            if i >= _N:
                mt[0] = mt[_N - 1]
                i = 1
            if j >= len(key):
                j = 0
        for _ in range(_N - 1):
            prev = mt[i - 1]
            mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & _MASK
            i += 1
            if i >= _N:
                mt[0] = mt[_N - 1]
                i = 1
        mt[0] = 0x80000000

    def _twist(self):
        mt = self._mt
        for k in range(_N):
            y = (mt[k] & _UPPER) | (mt[(k + 1) % _N] & _LOWER)
            mt[k] = mt[(k + _M) % _N] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        self._index = 0

    def _genrand(self):
        if self._index >= _N:
            self._twist()
        y = self._mt[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y & _MASK

    def seed(self, a=None, version=2):
        if a is None:
            a = _time.time_ns()
        elif isinstance(a, float):
            a = hash(a)
        elif not isinstance(a, int):
            raise TypeError("The only supported seed types are: None, int and float "
                            "(Kiln does not seed from str or bytes)")
        a = abs(a)
        key = []
        while a:
            key.append(a & _MASK)
            a >>= 32
        self._init_by_array(key or [0])
        self.gauss_next = None

    def getstate(self):
        return (self.VERSION, tuple(self._mt) + (self._index,), self.gauss_next)

    def setstate(self, state):
        version, internal, self.gauss_next = state
        self._mt = list(internal[:_N])
        self._index = internal[_N]

    def random(self):
        a = self._genrand() >> 5
        b = self._genrand() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k):
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k <= 32:
            return self._genrand() >> (32 - k) if k else 0
        if k > 63:
            raise OverflowError("Kiln's integers are 64-bit: getrandbits() gives at most 63 bits")
        result = 0
        shift = 0
        while k > 0:
            word = self._genrand()
            if k < 32:
                word >>= 32 - k
            result |= word << shift
            shift += 32
            k -= 32
        return result

    def _randbelow(self, n):
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def randrange(self, start, stop=None, step=1):
        start = _index(start, "non-integer arg 1 for randrange()")
        if stop is None:
            if step != 1:
                raise TypeError("Missing a non-None stop argument")
            if start > 0:
                return self._randbelow(start)
            raise ValueError("empty range for randrange()")
        stop = _index(stop, "non-integer stop for randrange()")
        step = _index(step, "non-integer step for randrange()")
        width = stop - start
        if step == 1:
            if width > 0:
                return start + self._randbelow(width)
            raise ValueError(f"empty range for randrange() ({start}, {stop}, {width})")
        if step > 0:
            n = (width + step - 1) // step
        elif step < 0:
            n = (width + step + 1) // step
        else:
            raise ValueError("zero step for randrange()")
        if n <= 0:
            raise ValueError("empty range for randrange()")
        return start + step * self._randbelow(n)

    def randint(self, a, b):
        return self.randrange(a, b + 1)

    def choice(self, seq):
        if not len(seq):
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._randbelow(len(seq))]

    def shuffle(self, x):
        for i in reversed(range(1, len(x))):
            j = self._randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population, k, *, counts=None):
        if isinstance(population, dict):
            raise TypeError("Population must be a sequence.  For dicts or sets, use sorted(d).")
        if counts is not None:
            expanded = []
            for item, count in zip(population, counts):
                expanded.extend([item] * count)
            population = expanded
        n = len(population)
        if not 0 <= k <= n:
            raise ValueError("Sample larger than population or is negative")
        result = [None] * k
        setsize = 21
        if k > 5:
            setsize += 4 ** _math.ceil(_math.log(k * 3) / LOG4)
        if n <= setsize:
            pool = list(population)
            for i in range(k):
                j = self._randbelow(n - i)
                result[i] = pool[j]
                pool[j] = pool[n - i - 1]
        else:
            selected = {}
            for i in range(k):
                j = self._randbelow(n)
                while j in selected:
                    j = self._randbelow(n)
                selected[j] = True
                result[i] = population[j]
        return result

    def choices(self, population, weights=None, *, cum_weights=None, k=1):
        n = len(population)
        if cum_weights is None:
            if weights is None:
                n += 0.0
                return [population[_math.floor(self.random() * n)] for _ in range(k)]
            cum_weights = []
            total = 0
            for w in weights:
                total = total + w
                cum_weights.append(total)
        elif weights is not None:
            raise TypeError("Cannot specify both weights and cumulative weights")
        if len(cum_weights) != n:
            raise ValueError("The number of weights does not match the population")
        total = cum_weights[-1] + 0.0
        if total <= 0.0:
            raise ValueError("Total of weights must be greater than zero")
        if not _math.isfinite(total):
            raise ValueError("Total of weights must be finite")
        hi = n - 1
        return [population[_bisect_right(cum_weights, self.random() * total, hi)]
                for _ in range(k)]

    def uniform(self, a, b):
        return a + (b - a) * self.random()

    def triangular(self, low=0.0, high=1.0, mode=None):
        u = self.random()
        try:
            c = 0.5 if mode is None else (mode - low) / (high - low)
        except ZeroDivisionError:
            return low
        if u > c:
            u = 1.0 - u
            c = 1.0 - c
            low, high = high, low
        return low + (high - low) * _math.sqrt(u * c)

    def normalvariate(self, mu=0.0, sigma=1.0):
        while True:
            u1 = self.random()
            u2 = 1.0 - self.random()
            z = NV_MAGICCONST * (u1 - 0.5) / u2
            zz = z * z / 4.0
            if zz <= -_math.log(u2):
                break
        return mu + z * sigma

    def gauss(self, mu=0.0, sigma=1.0):
        z = self.gauss_next
        self.gauss_next = None
        if z is None:
            x2pi = self.random() * TWOPI
            g2rad = _math.sqrt(-2.0 * _math.log(1.0 - self.random()))
            z = _math.cos(x2pi) * g2rad
            self.gauss_next = _math.sin(x2pi) * g2rad
        return mu + z * sigma

    def lognormvariate(self, mu, sigma):
        return _math.exp(self.normalvariate(mu, sigma))

    def expovariate(self, lambd):
        return -_math.log(1.0 - self.random()) / lambd


def _index(n, message):
    # CPython 3.11 still accepts integral floats here (with a DeprecationWarning).
    if isinstance(n, int):
        return n
    if isinstance(n, float):
        if n == int(n):
            return int(n)
        raise ValueError(message)
    raise TypeError(f"'{type(n).__name__}' object cannot be interpreted as an integer")


def _bisect_right(a, x, hi):
    lo = 0
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


_inst = Random()
seed = _inst.seed
random = _inst.random
uniform = _inst.uniform
triangular = _inst.triangular
randint = _inst.randint
choice = _inst.choice
randrange = _inst.randrange
sample = _inst.sample
shuffle = _inst.shuffle
choices = _inst.choices
normalvariate = _inst.normalvariate
lognormvariate = _inst.lognormvariate
expovariate = _inst.expovariate
gauss = _inst.gauss
getstate = _inst.getstate
setstate = _inst.setstate
getrandbits = _inst.getrandbits
