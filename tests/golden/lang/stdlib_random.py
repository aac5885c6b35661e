# random: CPython's Mersenne Twister and algorithms, so a seeded script draws the same numbers.
import random
random.seed(0)
print(random.random(), random.random())
random.seed(42)
print(random.randint(1, 100), random.choice("abcdef"), random.uniform(1, 2))
xs = list(range(10)); random.shuffle(xs); print(xs)
print(random.sample(range(100), 5), random.gauss(0, 1), random.gauss(0, 1), random.normalvariate(0, 1))
print(random.choices("abc", k=4), random.choices("abc", weights=[1, 2, 3], k=4), random.getrandbits(40))
random.seed(123456789012)
print(random.random(), random.randrange(0, 100, 7), random.triangular(), random.sample(range(1000), 30)[:3])
r = random.Random(7)
print(r.random(), r.expovariate(2.0))
st = random.getstate(); a = random.random(); random.setstate(st); print(a == random.random())
for bad in (lambda: random.randrange(0), lambda: random.choice([]), lambda: random.sample([1], 2),
            lambda: random.randint(1.5, 3)):
    try:
        bad()
    except (ValueError, IndexError, TypeError) as e:
        print(type(e).__name__ + ":", e)
