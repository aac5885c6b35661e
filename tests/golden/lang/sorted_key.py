words = ["banana", "Apple", "cherry", "apple", "Banana", "date"]
print(sorted(words))
print(sorted(words, key=str.lower))
print(sorted(words, key=len))
print(sorted(words, key=len, reverse=True))
print(sorted(words, key=lambda w: (len(w), w)))
# stability: equal keys keep original order, also with reverse
pairs = [(1, "b"), (0, "a"), (1, "a"), (0, "b"), (2, "c"), (1, "c")]
print(sorted(pairs, key=lambda p: p[0]))
print(sorted(pairs, key=lambda p: p[0], reverse=True))
print(sorted(pairs))
nums = [3, -1, 4, -1, 5, -9, 2, 6]
print(sorted(nums), sorted(nums, key=abs), sorted(nums, reverse=True))
print(sorted(nums, key=lambda v: -v), sorted([2.5, 1, True, 0.5]))
print(sorted("hello"), sorted((3, 1, 2)), sorted({"b": 1, "a": 2}), sorted(range(5, 0, -1)))
print(sorted({"b": 1, "a": 2}.items(), key=lambda kv: kv[1]))
print(sorted([[2, 1], [1, 2], [1, 1]]), sorted([]), sorted(["b", "a"], key=None))
lst = [5, 2, 8, 1]
lst.sort()
print(lst)
lst.sort(reverse=True)
print(lst)
lst.sort(key=lambda v: v % 3)
print(lst)
print(lst.sort())
class Item:
    def __init__(self, name, price):
        self.name, self.price = name, price
    def __repr__(self):
        return f"Item({self.name}, {self.price})"
    def __lt__(self, other):
        return self.price < other.price
shop = [Item("a", 3), Item("b", 1), Item("c", 2), Item("d", 1)]
print(sorted(shop), sorted(shop, key=lambda i: i.name, reverse=True), min(shop), max(shop))
try:
    sorted([1, "a"])
except TypeError as e:
    print("TypeError:", e)
try:
    sorted([1, 2], key=5)
except TypeError as e:
    print("TypeError:", e)
try:
    sorted([1, 2], lambda v: v)
except TypeError as e:
    print("TypeError:", e)
# min / max with key and default
print(min(3, 1, 2), max(3, 1, 2), min([4, 2, 8]), max("abc"), min("b", "a", key=str.upper))
print(min(words, key=len), max(words, key=len), max([], default="empty"), min([], key=abs, default=None))
print(max([1, 3, 3, 2], key=lambda v: v), max([(1, "a"), (1, "b")], key=lambda t: t[0]))
print(min([(1, "a"), (1, "b")], key=lambda t: t[0]), max(-3, 2, key=abs), min(1.5, 1), max(True, 0))
for bad in [lambda: min([]), lambda: max(), lambda: max(1), lambda: min([], default=1, key=None) and min(1, 2, default=0)]:
    try:
        print(bad())
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
