assert True
assert 1 == 1, "never shown"
try:
    assert False
except AssertionError as e:
    print("AssertionError", repr(e), e.args)
try:
    assert 1 > 2, "one is not greater than two"
except AssertionError as e:
    print("AssertionError", e)
try:
    x = [1, 2]
    assert len(x) == 3, f"expected 3 items, got {len(x)}: {x}"
except AssertionError as e:
    print("AssertionError", e)
try:
    assert None, ("tuple", "message")
except AssertionError as e:
    print("AssertionError", e, e.args)
def side():
    print("message evaluated")
    return "msg"
assert True, side()
try:
    assert 0, side()
except AssertionError as e:
    print("AssertionError", e)
def check(v):
    assert isinstance(v, int), f"not an int: {v!r}"
    return v * 2
print(check(4))
try:
    check("s")
except AssertionError as e:
    print("AssertionError", e)
try:
    assert [], 42
except AssertionError as e:
    print("AssertionError", e, type(e.args[0]).__name__)
