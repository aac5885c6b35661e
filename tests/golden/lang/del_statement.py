a = 1
del a
try:
    print(a)
except NameError as e:
    print("NameError", e)
x, y, z = 1, 2, 3
del x, y
print(z, "x" in globals(), "y" in globals())
lst = [0, 1, 2, 3, 4, 5]
del lst[0]
del lst[-1]
del lst[1:3]
print(lst)
d = {"a": 1, "b": 2, "c": 3}
del d["b"]
print(d)
try:
    del d["zz"]
except KeyError as e:
    print("KeyError", e)
class O:
    pass
o = O()
o.attr = 1
del o.attr
print(hasattr(o, "attr"))
def local_del():
    v = 5
    del v
    try:
        return v
    except UnboundLocalError as e:
        return "UnboundLocalError " + str(e)
print(local_del())
try:
    del undefined_thing
except NameError as e:
    print("NameError", e)
def del_twice():
    w = 1
    del w
    try:
        del w
    except UnboundLocalError as e:
        print("UnboundLocalError", e)
del_twice()
nested = [[1, 2], [3, 4]]
del nested[0][1], nested[1]
print(nested)
(p, q) = (1, 2)
del (p, q)
print("p" in globals())
[r, s] = 1, 2
del [r, s]
print("r" in globals())
def closure_del():
    c = 1
    def inner():
        return c
    del c
    try:
        inner()
    except NameError as e:
        print("NameError", e)
closure_del()
t = (1, 2)
try:
    del t[0]
except TypeError as e:
    print("TypeError", e)
g = 10
def del_global():
    global g
    del g
del_global()
print("g" in globals())
for i in range(3):
    pass
del i
print("i" in globals())
