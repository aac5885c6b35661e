def risky(kind):
    if kind == "zero":
        return 1 / 0
    if kind == "key":
        return {}["missing"]
    if kind == "index":
        return [][3]
    if kind == "type":
        return 1 + "a"
    if kind == "value":
        return int("abc")
    if kind == "attr":
        return None.foo
    if kind == "name":
        return undefined_name
    return "ok"
for kind in ["zero", "key", "index", "type", "value", "attr", "name", "fine"]:
    try:
        r = risky(kind)
    except ZeroDivisionError as e:
        print("zero:", e)
    except (KeyError, IndexError) as e:
        print("lookup:", type(e).__name__, e, repr(e))
    except TypeError as e:
        print("type:", e)
    except Exception as e:
        print("other:", type(e).__name__, e)
    else:
        print("no error:", r)
    finally:
        print("finally", kind)
# base class catches subclass
try:
    [1][5]
except LookupError as e:
    print("LookupError caught", type(e).__name__)
try:
    1 // 0
except ArithmeticError as e:
    print("ArithmeticError caught", e)
# bare except
try:
    raise RuntimeError("boom")
except:
    print("bare except")
# exception name is unbound after the handler
try:
    raise ValueError("v")
except ValueError as err:
    pass
try:
    print(err)
except NameError as e:
    print("NameError:", e)
# the name is deleted even if it existed before
err2 = "before"
try:
    raise KeyError("k")
except KeyError as err2:
    pass
print("err2" in globals())
# raising with and without instantiating
try:
    raise ValueError
except ValueError as e:
    print(repr(e), str(e) == "", e.args)
try:
    raise ValueError("a", 2)
except ValueError as e:
    print(repr(e), e, e.args)
# re-raise
def reraiser():
    try:
        raise IndexError("inner")
    except IndexError:
        print("handling, then re-raising")
        raise
try:
    reraiser()
except IndexError as e:
    print("outer got", e)
# exception attributes
try:
    {"a": 1}["b"]
except KeyError as e:
    print(e.args, str(e), repr(e))
try:
    raise KeyError("quoted 'x'")
except KeyError as e:
    print(e)
# nested try
try:
    try:
        raise TypeError("inner type")
    except ValueError:
        print("wrong handler")
    finally:
        print("inner finally")
except TypeError as e:
    print("outer caught", e)
# exception in else is not caught by same try
try:
    try:
        pass
    except ZeroDivisionError:
        print("not here")
    else:
        1 / 0
except ZeroDivisionError:
    print("else-clause error propagated")
# handler type given as a tuple variable
errors = (ValueError, TypeError)
try:
    int("z")
except errors as e:
    print("tuple var:", type(e).__name__)
# exception objects are ordinary values
e = ValueError("stored")
print(type(e).__name__, e, isinstance(e, Exception), isinstance(e, BaseException))
try:
    raise e
except ValueError as caught:
    print(caught is e)
# str/repr of various exceptions
print(repr(Exception()), repr(Exception("x")), str(Exception("x", "y")))
print(repr(ZeroDivisionError("division by zero")))
# catching and continuing a loop
results = []
for v in ["1", "x", "3"]:
    try:
        results.append(int(v))
    except ValueError:
        results.append(None)
print(results)
# return inside try/except
def f():
    try:
        return "try"
    except Exception:
        return "except"
print(f())
def g():
    try:
        raise ValueError
    except ValueError:
        return "except"
print(g())
# StopIteration from next()
it = iter([1])
print(next(it))
try:
    next(it)
except StopIteration as e:
    print("StopIteration", repr(e))
print(next(it, "default"))
# exception hierarchy
print(issubclass(ZeroDivisionError, ArithmeticError), issubclass(KeyError, LookupError),
      issubclass(UnboundLocalError, NameError), issubclass(RecursionError, RuntimeError),
      issubclass(NotImplementedError, RuntimeError), issubclass(ModuleNotFoundError, ImportError),
      issubclass(Exception, BaseException), issubclass(KeyboardInterrupt, Exception))
