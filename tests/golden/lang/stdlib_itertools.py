# itertools: lazy iterators (count, repeat, cycle, islice, accumulate, chain, zip_longest,
# starmap, takewhile, dropwhile, groupby, ...) and the combinatoric functions, in CPython's order.
import itertools
import operator
from itertools import (accumulate, chain, combinations, count, groupby, islice, permutations,
                       product, repeat, starmap, zip_longest)

print(list(chain([1, 2], (3,), "ab")), list(chain.from_iterable([[1], [2, 3], []])))
print(list(product("ab", [0, 1])), list(product(range(2), repeat=2)), list(product()))
print(list(permutations([1, 2, 3])), list(permutations("abc", 2)), list(permutations([1], 2)))
print(list(combinations(range(4), 2)), list(combinations("ab", 3)), list(combinations([], 0)))
print(list(itertools.combinations_with_replacement("ab", 2)))
print(list(accumulate([1, 2, 3, 4])), list(accumulate([3, 1, 4], max)),
      list(accumulate([1, 2], initial=10)), list(accumulate([5, 2], operator.mul)))
print(list(islice("abcdefg", 3)), list(islice(range(10), 2, 8, 3)), list(islice(count(), 4)))
print(list(islice(count(5, 2), 3)), list(islice(count(1.5), 2)), repr(count(3)))
print(list(repeat("x", 3)), list(zip(range(3), repeat(0))), list(repeat(1, -2)))
print(list(zip_longest("ab", [1, 2, 3], fillvalue="-")), list(zip_longest()))
print(list(starmap(pow, [(2, 3), (3, 2)])), list(islice(itertools.cycle("ab"), 5)))
print(list(itertools.takewhile(lambda x: x < 3, [1, 2, 5, 1])),
      list(itertools.dropwhile(lambda x: x < 3, [1, 2, 5, 1])))
print(list(itertools.filterfalse(lambda x: x % 2, range(6))),
      list(itertools.compress("abcd", [1, 0, 1, 0])), list(itertools.pairwise([1, 2, 3])))
print([(k, list(g)) for k, g in groupby("aaabccaa")])
print([(k, len(list(g))) for k, g in groupby([1, 3, 2, 4, 5], key=lambda v: v % 2)])
a, b = itertools.tee([1, 2, 3])
print(list(a), list(b))
it = islice(count(), 2)
print(next(it), next(it), next(it, "done"))
lazy = map(lambda v: v * 10, count())
print(next(lazy), next(lazy))
try:
    list(islice([1], -1))
except ValueError as e:
    print("ValueError:", e)
total = 0
for i in count(1):
    total += i
    if i == 10:
        break
print(total)
