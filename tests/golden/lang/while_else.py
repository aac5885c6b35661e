i = 0
while i < 5:
    i += 1
    if i == 3:
        continue
    print("i", i)
else:
    print("while else ran, i =", i)
n = 10
while n > 0:
    n -= 3
    if n < 5:
        print("break at", n)
        break
else:
    print("not printed")
count = 0
while True:
    count += 1
    if count >= 4:
        break
print("count", count)
x = 0
while x:
    print("never")
else:
    print("falsy condition else")
# while with complex condition
a, b = 0, 1
fib = []
while len(fib) < 10 and b < 100:
    fib.append(b)
    a, b = b, a + b
print(fib)
# nested while with break in inner
i = 0
res = []
while i < 3:
    j = 0
    while True:
        if j > i:
            break
        res.append((i, j))
        j += 1
    i += 1
print(res)
# while over a shrinking list
stack = [1, 2, 3]
while stack:
    print("pop", stack.pop())
print("empty", stack)
