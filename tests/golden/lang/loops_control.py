def find(items, target):
    for i, v in enumerate(items):
        if v == target:
            return i
    return -1
print(find([3, 4, 5], 4), find([], 1), find("abc", "c"))
def first_even(items):
    for v in items:
        if v % 2 == 0:
            break
    else:
        return None
    return v
print(first_even([1, 3, 4, 6]), first_even([1, 3]))
result = []
for i in range(5):
    if i == 1:
        continue
    if i == 4:
        break
    result.append(i)
else:
    result.append("else")
print(result)
count = 0
while count < 10:
    count += 1
    if count % 2:
        continue
    if count > 6:
        break
print(count)
matrix = [[1, 2], [3, 4], [5, 6]]
found = None
for r, row in enumerate(matrix):
    for c, v in enumerate(row):
        if v == 4:
            found = (r, c)
            break
    if found:
        break
print(found)
def loop_with_try():
    out = []
    for v in [1, 0, 2, "x", 3]:
        try:
            out.append(10 // v)
        except ZeroDivisionError:
            out.append("zero")
            continue
        except TypeError:
            out.append("type")
            break
        finally:
            out.append("f")
    return out
print(loop_with_try())
n = 0
while True:
    n += 1
    try:
        if n == 3:
            break
    finally:
        pass
print("n", n)
total = 0
for i in range(3):
    for j in range(3):
        if j > i:
            continue
        total += i * j
print(total)
items = ["a", "b", "c"]
while items:
    item = items.pop(0)
    if item == "b":
        items.append("B")
    print(item, end=" ")
print()
for x in []:
    pass
else:
    print("else of empty for")
k = 0
while k < 3:
    k += 1
else:
    print("while else", k)
