g = 1
def read():
    return g
def write():
    global g
    g = 2
print(read())
write()
print(read(), g)
def create_global():
    global created
    created = "made inside"
create_global()
print(created)
def outer():
    x = "outer"
    def inner():
        nonlocal x
        x = "inner"
    inner()
    return x
print(outer())
def deep():
    x = 0
    def mid():
        def inn():
            nonlocal x
            x += 5
        inn()
        inn()
    mid()
    return x
print(deep())
# local shadowing a global
name = "global"
def shadow():
    name = "local"
    return name
print(shadow(), name)
# global declared in nested function
counter = 0
def outer2():
    def bump():
        global counter
        counter += 1
    bump()
    bump()
outer2()
print(counter)
# unbound local error
total = 10
def broken():
    try:
        total += 1
    except UnboundLocalError as e:
        print(type(e).__name__, e)
broken()
def broken2():
    try:
        print(v)
    except UnboundLocalError as e:
        print(type(e).__name__, e)
    v = 1
broken2()
def broken3():
    def inner():
        return w
    try:
        inner()
    except NameError as e:
        print(type(e).__name__, e)
    w = 2
broken3()
# global statement at module level is allowed
global zz
zz = 3
print(zz)
# class body scope: names not visible in methods
class C:
    attr = 5
    def m(self):
        try:
            return attr
        except NameError as e:
            return str(e)
print(C().m())
# class body can read enclosing function locals
def make():
    val = 7
    class D:
        x = val
    return D.x
print(make())
# nonlocal in class method
def mk():
    n = 0
    class E:
        def bump(self):
            nonlocal n
            n += 1
            return n
    e = E()
    e.bump()
    return e.bump()
print(mk())
