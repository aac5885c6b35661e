def classify(n):
    if n < 0:
        return "negative"
    elif n == 0:
        return "zero"
    elif n < 10:
        return "small"
    else:
        return "large"
print([classify(v) for v in (-5, 0, 3, 10, 100)])
x = 7
if x % 2:
    print("odd")
if not x % 2:
    print("even")
else:
    print("not even")
if x > 5: print("one-line if")
if []:
    print("empty list is truthy?")
elif {}:
    print("empty dict is truthy?")
elif "":
    print("empty str?")
else:
    print("all empty containers are falsy")
if 0.0 or None or 0:
    pass
else:
    print("zero-ish values are falsy")
# nested if
for a in (True, False):
    for b in (True, False):
        if a:
            if b:
                print(a, b, "both")
            else:
                print(a, b, "only a")
        elif b:
            print(a, b, "only b")
        else:
            print(a, b, "neither")
# conditional expression chains
for v in (1, 2, 3):
    print("one" if v == 1 else "two" if v == 2 else "many")
# if with walrus and membership
words = {"apple": 3}
if "apple" in words and words["apple"] > 2:
    print("many apples")
if (k := "pear") not in words:
    print(k, "missing")
# truthiness of custom object in if
class Flag:
    def __init__(self, on):
        self.on = on
    def __bool__(self):
        print("bool called")
        return self.on
if Flag(True):
    print("flag on")
if not Flag(False):
    print("flag off")
print("yes" if Flag(True) and Flag(False) else "no")
