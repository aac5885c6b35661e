class Base(ValueError):
    pass
class Derived(Base):
    pass
raise Derived('derived', 2)
