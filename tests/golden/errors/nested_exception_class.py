# An uncaught exception of a nested class names it by its qualified name.
class Outer:
    class Error(Exception):
        pass


raise Outer.Error("boom")
