x = 5
print(1 < x < 10, 1 < x > 10, 1 < 2 < 3 < 4, 3 > 2 > 1 > 1, 1 == 1 == 1.0, 1 < 3 != 4)
def mid():
    print("mid evaluated")
    return 5
print(1 < mid() < 10)
print(10 < mid() < 20)
def left():
    print("left")
    return 100
print(left() < 1 < mid())
print(1 <= 1 < 2 <= 2, "a" < "b" < "c", [1] < [2] < [3], (1, 2) <= (1, 2) < (1, 3))
print(x is not None is not False, 1 in [1, 2] in [[1, 2]], "a" not in "bcd" != False)
a = b = c = 3
print(a == b == c, a is b is c, a < b < c)
print(0 < 0.5 < True, -1 < False <= 0)
print(1 < 2 > 0 < 5 >= 5 == 5 != 6)
# comparisons of mixed types
print(1 == 1.0, 1 == True, 0 == False, 2 == True, "1" == 1, None == 0, [] == (), [1] == [1.0])
print(float("nan") == float("nan"), float("nan") != float("nan"), float("inf") > 1e308)
try:
    print(1 < "a")
except TypeError as e:
    print("TypeError:", e)
try:
    print([1] < (1,))
except TypeError as e:
    print("TypeError:", e)
try:
    print(None < 1)
except TypeError as e:
    print("TypeError:", e)
try:
    print({} < {})
except TypeError as e:
    print("TypeError:", e)
print("abc" < "abd", "Z" < "a", "" < "a", "ab" < "abc", [1, 2] < [1, 2, 0], (2,) > (1, 9))
print([1, "a"] == [1, "a"], [1, [2, 3]] < [1, [2, 4]], {"a": 1} == {"a": 1.0}, {"a": 1} != {"a": 2})
