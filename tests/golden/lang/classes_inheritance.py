class Animal:
    sound = "..."
    def __init__(self, name):
        self.name = name
    def speak(self):
        return f"{self.name} says {self.sound}"
    def kind(self):
        return "animal"
class Dog(Animal):
    sound = "woof"
    def kind(self):
        return "dog, a kind of " + super().kind()
class Puppy(Dog):
    def __init__(self, name, age):
        super().__init__(name)
        self.age = age
    def speak(self):
        return super().speak() + f" (age {self.age})"
d = Dog("rex")
p = Puppy("bit", 1)
print(d.speak(), "|", d.kind())
print(p.speak(), "|", p.kind())
print(isinstance(p, Animal), isinstance(p, Dog), isinstance(d, Puppy))
print(issubclass(Puppy, Animal), issubclass(Animal, Puppy), issubclass(Dog, Dog))
print([c.__name__ for c in Puppy.__mro__])
# multiple inheritance and MRO
class A:
    def who(self):
        return "A"
class B(A):
    def who(self):
        return "B>" + super().who()
class C(A):
    def who(self):
        return "C>" + super().who()
class D(B, C):
    def who(self):
        return "D>" + super().who()
print(D().who())
print([k.__name__ for k in D.__mro__])
print(D.mro() == list(D.__mro__))
class E(C, B):
    pass
print(E().who(), [k.__name__ for k in E.__mro__])
# attribute lookup through MRO
class X:
    val = "X"
class Y(X):
    pass
class Z(Y):
    pass
print(Z.val, Z().val)
Y.val = "Y"
print(Z.val)
# inconsistent MRO
try:
    class Bad(A, B):
        pass
except TypeError as e:
    print("TypeError:", e)
# overriding __init__ without calling super
class Base:
    def __init__(self):
        self.base_set = True
class NoSuper(Base):
    def __init__(self):
        self.own = True
ns = NoSuper()
print(hasattr(ns, "base_set"), ns.own)
# inherited __init__
class Child(Base):
    pass
print(Child().base_set)
# calling parent method explicitly
class Explicit(Dog):
    def speak(self):
        return "explicit: " + Dog.speak(self)
print(Explicit("e").speak())
# __bases__
print([b.__name__ for b in D.__bases__], Animal.__bases__[0].__name__)
# diamond with __init__ and super chain
class Root:
    def __init__(self):
        print("Root init")
class Left(Root):
    def __init__(self):
        print("Left init")
        super().__init__()
class Right(Root):
    def __init__(self):
        print("Right init")
        super().__init__()
class Bottom(Left, Right):
    def __init__(self):
        print("Bottom init")
        super().__init__()
Bottom()
