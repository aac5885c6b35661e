# An instance keeps its class alive, and methods keep their class alive (for super()), however
# the class's name is deleted or rebound.


class A:
    pass


x = A()
del A
print(type(x), type(x).__name__)

print(type("X", (), {"a": 3})().a)


class Old:
    def f(self):
        return "old f"


old = Old()


class Old:
    def g(self):
        return "new g"


print(old.f(), Old().g(), type(old) is Old)


class Base:
    def f(self):
        return "Base.f"


class Derived(Base):
    def f(self):
        return "Derived.f+" + super().f()


d = Derived()
Derived = 5
print(d.f())


class WithProperty:
    @property
    def p(self):
        return 42

    @classmethod
    def make(cls):
        return cls.__name__

    @staticmethod
    def static():
        return "static"


w = WithProperty()
WithProperty = 5
print(w.p, w.make(), w.static())


def local_exception():
    class LocalError(Exception):
        pass

    raise LocalError("raised from a local class")


try:
    local_exception()
except Exception as e:
    print("caught", type(e).__name__, e, isinstance(e, Exception))


def factory(i):
    class Local:
        tag = i

        def get(self):
            return self.tag

    return Local()


objects = [factory(i) for i in range(100)]
print(sum(o.get() for o in objects), type(objects[0]) is type(objects[1]))
for i in range(200):
    type("T%d" % i, (), {})()


class Singleton:
    pass


Singleton.instance = Singleton()
s = Singleton.instance
del Singleton
print(type(s).__name__, type(s.instance) is type(s))


class Other:
    def hello(self):
        return "Other.hello"


class Copy:
    hello = Other.hello


print(Copy().hello(), Other().hello())
try:
    super(int, Other())
except TypeError as e:
    print(e)
