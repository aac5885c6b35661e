def ret_override():
    try:
        return "try"
    finally:
        return "finally"
print(ret_override())
def swallow():
    try:
        raise ValueError("lost")
    finally:
        return "swallowed"
print(swallow())
def order():
    log = []
    try:
        log.append("try")
        return log
    finally:
        log.append("finally")
print(order())
def value_captured():
    x = 1
    try:
        return x
    finally:
        x = 2
print(value_captured())
# break in finally cancels exception
def brk():
    for i in range(3):
        try:
            raise KeyError(i)
        finally:
            break
    return "broke at " + str(i)
print(brk())
# continue in finally
def cont():
    out = []
    for i in range(3):
        try:
            if i == 1:
                raise ValueError
            out.append(i)
        finally:
            continue
    return out
print(cont())
# finally runs on break and continue
for i in range(3):
    try:
        if i == 0:
            continue
        if i == 2:
            break
        print("body", i)
    finally:
        print("finally", i)
# exception in finally replaces the original, with context
def replace():
    try:
        raise ValueError("original")
    finally:
        raise TypeError("from finally")
try:
    replace()
except TypeError as e:
    print(type(e).__name__, e, "| context:", type(e.__context__).__name__, e.__context__)
# exception in except clause
def in_handler():
    try:
        1 / 0
    except ZeroDivisionError:
        raise KeyError("in handler")
try:
    in_handler()
except KeyError as e:
    print("KeyError", e, "context:", repr(e.__context__))
# finally after exception in except
def handler_finally():
    try:
        try:
            raise ValueError
        except ValueError:
            raise RuntimeError("rt")
        finally:
            print("finally runs before propagation")
    except RuntimeError as e:
        print("caught", e)
handler_finally()
# nested finally order
def nested():
    try:
        try:
            return "inner"
        finally:
            print("inner finally")
    finally:
        print("outer finally")
print(nested())
# return in finally inside loop
def loop_ret():
    for i in range(5):
        try:
            if i == 2:
                return i
        finally:
            if i == 2:
                print("finally at 2")
print(loop_ret())
# try/except/else/finally all together
def full(x):
    try:
        r = 10 / x
    except ZeroDivisionError:
        print("except")
        return "err"
    else:
        print("else")
        return r
    finally:
        print("finally")
print(full(2), full(0))
# while loop with finally and break
n = 0
while True:
    try:
        n += 1
        if n == 3:
            break
    finally:
        print("while finally", n)
print("n", n)
