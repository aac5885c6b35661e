# Containers changed while they are iterated behave as in CPython: dicts and deques raise
# RuntimeError, lists are iterated by index (appends are seen), reversed(list) indexes the live
# list from its end, and a key function that grows the list it is given to max() is harmless.
from collections import deque


def attempt(name, f):
    try:
        print(name, f())
    except Exception as e:
        print(name, type(e).__name__, e)


def dict_add():
    d = {1: 1, 2: 2}
    for k in d:
        d[k + 10] = 1
    return d


def dict_del_keys():
    d = {1: 1, 2: 2, 3: 3}
    for k in d.keys():
        del d[k]
    return d


def dict_same_size():
    d = {1: 1, 2: 2}
    seen = []
    for k, v in d.items():
        seen.append(k)
        d[k] = v + 1
    return seen, d


def deque_append():
    q = deque([1, 2, 3])
    for x in q:
        q.append(x)
    return list(q)


def deque_popleft_reversed():
    q = deque([1, 2, 3])
    for x in reversed(q):
        q.popleft()
    return list(q)


def deque_setitem():
    q = deque([1, 2, 3])
    for i, x in enumerate(q):
        q[i] = x * 10
    return list(q)


def deque_after_loop():
    q = deque([1, 2])
    it = iter(q)
    first = next(it)
    q.append(3)
    try:
        next(it)
    except RuntimeError as e:
        return first, str(e), list(q)


def reversed_shrinking():
    items = [1, 2, 3, 4]
    out = []
    for x in reversed(items):
        out.append(x)
        if len(items) > 2:
            items.pop(0)
    return out


def reversed_growing():
    items = [1, 2, 3]
    out = []
    for x in reversed(items):
        out.append(x)
        if len(items) < 5:
            items.append(x * 10)
    return out, items


def max_key_grows():
    items = [3, 1, 2]

    def key(x):
        if len(items) < 6:
            items.append(x)
        return x

    return max(items, key=key), items


def list_append():
    items = [1, 2, 3]
    for x in items:
        if len(items) < 6:
            items.append(x)
    return items


for case in [dict_add, dict_del_keys, dict_same_size, deque_append, deque_popleft_reversed,
             deque_setitem, deque_after_loop, reversed_shrinking, reversed_growing,
             max_key_grows, list_append]:
    attempt(case.__name__, case)
