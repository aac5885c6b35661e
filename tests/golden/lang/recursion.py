def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print(fact(0), fact(1), fact(10), fact(20))
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
print([fib(i) for i in range(15)])
memo = {}
def fib_memo(n):
    if n in memo:
        return memo[n]
    r = n if n < 2 else fib_memo(n - 1) + fib_memo(n - 2)
    memo[n] = r
    return r
print(fib_memo(90))
def is_even(n):
    return True if n == 0 else is_odd(n - 1)
def is_odd(n):
    return False if n == 0 else is_even(n - 1)
print(is_even(100), is_odd(7))
def flatten(x):
    if isinstance(x, list):
        out = []
        for item in x:
            out.extend(flatten(item))
        return out
    return [x]
print(flatten([1, [2, [3, [4, []]], 5]]))
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
print(depth(900))
def perms(items):
    if len(items) <= 1:
        return [items]
    out = []
    for i in range(len(items)):
        for p in perms(items[:i] + items[i + 1:]):
            out.append([items[i]] + p)
    return out
print(perms([1, 2, 3]))
def hanoi(n, a, b, c, moves):
    if n:
        hanoi(n - 1, a, c, b, moves)
        moves.append((a, c))
        hanoi(n - 1, b, a, c, moves)
    return moves
print(len(hanoi(10, "A", "B", "C", [])), hanoi(2, "A", "B", "C", []))
def forever(n):
    return forever(n + 1)
try:
    forever(0)
except RecursionError as e:
    print("RecursionError", e)
class Node:
    def __init__(self, v, children=()):
        self.v, self.children = v, list(children)
    def total(self):
        return self.v + sum(c.total() for c in self.children)
    def __repr__(self):
        return f"Node({self.v}, {self.children})" if self.children else f"Node({self.v})"
tree = Node(1, [Node(2, [Node(4)]), Node(3)])
print(tree.total(), tree)
print(fact(5), "still works after recursion error")
def ackermann(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))
print(ackermann(2, 3))
