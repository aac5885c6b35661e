try:
    try:
        1 / 0
    except ZeroDivisionError as e:
        raise ValueError("converted") from e
except ValueError as e:
    print(e, "| cause:", repr(e.__cause__), "| context:", repr(e.__context__),
          e.__suppress_context__)
try:
    try:
        {}["k"]
    except KeyError:
        raise ValueError("implicit")
except ValueError as e:
    print(e, "| cause:", e.__cause__, "| context:", repr(e.__context__), e.__suppress_context__)
try:
    try:
        [][0]
    except IndexError:
        raise ValueError("suppressed") from None
except ValueError as e:
    print(e, "| cause:", e.__cause__, "| context:", repr(e.__context__), e.__suppress_context__)
# no context when raised outside handler
try:
    raise TypeError("plain")
except TypeError as e:
    print(e.__cause__, e.__context__, e.__suppress_context__)
# from a class
try:
    try:
        raise OSError("os")
    except OSError as inner:
        raise RuntimeError("rt") from KeyError
except RuntimeError as e:
    print(repr(e.__cause__), repr(e.__context__))
# context chain of three
try:
    try:
        try:
            raise ValueError(1)
        except ValueError:
            raise TypeError(2)
    except TypeError:
        raise KeyError(3)
except KeyError as e:
    chain = []
    cur = e
    while cur is not None:
        chain.append(repr(cur))
        cur = cur.__context__
    print(" <- ".join(chain))
# handled exception inside handler does not leak into context
try:
    try:
        raise ValueError("a")
    except ValueError:
        try:
            raise TypeError("b")
        except TypeError:
            pass
        raise KeyError("c")
except KeyError as e:
    print(repr(e.__context__))
# exception context when re-raising the same
try:
    try:
        raise ValueError("same")
    except ValueError as e:
        raise e
except ValueError as e:
    print(repr(e.__context__))
# raise from a non-exception
try:
    raise ValueError("x") from 5
except TypeError as e:
    print("TypeError:", e)
# raising a non-exception
try:
    raise 5
except TypeError as e:
    print("TypeError:", e)
try:
    raise "str"
except TypeError as e:
    print("TypeError:", e)
class NotExc:
    pass
try:
    raise NotExc
except TypeError as e:
    print("TypeError:", e)
# with_traceback-free: args preserved through chaining
try:
    try:
        raise ValueError("a", "b")
    except ValueError as first:
        raise RuntimeError("second") from first
except RuntimeError as e:
    print(e.__cause__.args)
