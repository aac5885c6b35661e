def outer(x):
    def middle(y):
        def inner(z):
            return x + y + z
        return inner
    return middle
print(outer(1)(2)(3), outer("a")("b")("c"))
def apply_twice(f, v):
    return f(f(v))
def make_incrementer(step):
    def inc(v):
        return v + step
    inc.step = step
    return inc
print(apply_twice(make_incrementer(5), 0), make_incrementer(3).step, make_incrementer(2).__name__)
def recursive_inner(n):
    def helper(k):
        return 1 if k <= 1 else k * helper(k - 1)
    return helper(n)
print(recursive_inner(6))
def memoize(fn):
    cache = {}
    def wrapper(n):
        if n not in cache:
            cache[n] = fn(n)
        return cache[n]
    wrapper.cache = cache
    return wrapper
@memoize
def slow_square(n):
    print("computing", n)
    return n * n
print(slow_square(4), slow_square(4), slow_square(5), sorted(slow_square.cache.items()))
def accumulate():
    total = 0
    history = []
    def add(v):
        nonlocal total
        total += v
        history.append(total)
        return total
    def report():
        return total, history
    return add, report
add, report = accumulate()
add(1); add(10); add(100)
print(report())
def pipeline(*funcs):
    def run(v):
        for f in funcs:
            v = f(v)
        return v
    return run
print(pipeline(lambda v: v * 2, lambda v: v + 1, str)(5))
def gen_funcs():
    def a():
        return "a"
    def b():
        return a() + "b"
    return b
print(gen_funcs()())
def conditional_def(flag):
    if flag:
        def f():
            return "yes"
    else:
        def f():
            return "no"
    return f()
print(conditional_def(True), conditional_def(False))
def closure_over_loop():
    fs = {}
    for name in ["x", "y"]:
        def get(name=name):
            return name.upper()
        fs[name] = get
    return {k: f() for k, f in fs.items()}
print(closure_over_loop())
print(outer.__qualname__, outer(1).__qualname__, outer(1)(2).__qualname__)
