# The small integer dtypes: torch.uint8 (images, legacy masks), torch.int8 (quantised code) and
# torch.int16 (audio). Creation and printing, the promotion lattice, conversions that wrap
# around as C casts do, integer arithmetic, reductions, uint8 masks, bitwise ops, and
# torch.compile over uint8 images (a counting backend and inductor, compared with eager).
# The other dtypes torch names (complex, float8, uint16, quantised) exist as objects.
# PyTorch 2.3.1 prints the same; it also warns (on stderr) that uint8 masks and where
# conditions are deprecated, as Kiln does.
import torch


def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ":", e)


def assign(t, key, value):
    t[key] = value
    return t


small = [torch.uint8, torch.int8, torch.int16]
print(small, torch.short, torch.short is torch.int16)
for d in small:
    print(d, d.itemsize, d.is_floating_point, d.is_signed, d.is_complex, torch.iinfo(d),
          torch.iinfo(d).bits, torch.iinfo(d).min, torch.iinfo(d).max, torch.iinfo(d).dtype)

# --- creation and printing
print(torch.zeros(2, 3, dtype=torch.uint8))
print(torch.ones(2, dtype=torch.int8), torch.full((3,), -7, dtype=torch.int16))
print(torch.tensor([1, 2, 255], dtype=torch.uint8), torch.tensor([-128, 0, 127], dtype=torch.int8))
print(torch.tensor([-32768, 5, 32767], dtype=torch.int16), torch.tensor(7, dtype=torch.uint8))
print(torch.tensor([], dtype=torch.int8), torch.empty(0, 2, dtype=torch.uint8))
print(torch.arange(5, dtype=torch.uint8), torch.arange(250, 260, dtype=torch.uint8))
print(torch.arange(-3, 3, dtype=torch.int8), torch.arange(0, 1000, 300, dtype=torch.int16))
print(torch.tensor([-1, -255, True], dtype=torch.uint8), torch.full((2,), -1, dtype=torch.uint8))
print(torch.arange(2000, dtype=torch.int16).reshape(100, 20))
print(torch.randint(0, 256, (4, 4), dtype=torch.uint8).dtype,
      torch.empty(3, dtype=torch.int8).dtype)
print(torch.zeros_like(torch.ones(2), dtype=torch.uint8),
      torch.ones(2, dtype=torch.int8).new_zeros(3))
print(torch.eye(2, dtype=torch.uint8), torch.linspace(0, 200, 5, dtype=torch.uint8))
for v in [300, -256, 1.5, -0.5, float("nan")]:
    attempt(lambda: torch.tensor([v], dtype=torch.uint8))
attempt(lambda: torch.tensor([128], dtype=torch.int8))
attempt(lambda: torch.tensor([40000], dtype=torch.int16))
attempt(lambda: torch.full((2,), 300, dtype=torch.uint8))
attempt(lambda: torch.full((2,), -129, dtype=torch.int8))
attempt(lambda: torch.zeros(2, dtype=torch.int16).fill_(32768))
print(torch.zeros(2, dtype=torch.uint8).fill_(torch.tensor(300)))
x = torch.zeros(3, dtype=torch.uint8)
x[0] = -1
x[1] = 3.7
attempt(lambda: assign(x, 2, 256))
print(x)
print(torch.ByteTensor([1, 2]), torch.CharTensor([-1, 1.5]), torch.ShortTensor(2).dtype)
attempt(lambda: torch.ByteTensor([300]))
print(isinstance(torch.ones(1, dtype=torch.uint8), torch.ByteTensor),
      isinstance(torch.ones(1, dtype=torch.uint8), torch.CharTensor))

# --- the promotion lattice
dtypes = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
          torch.float16, torch.bfloat16, torch.float32, torch.float64]
for a in dtypes:
    print(str(a)[6:].ljust(9), " ".join(str(torch.promote_types(a, b))[6:] for b in dtypes))
u = torch.tensor([200, 100], dtype=torch.uint8)
i8 = torch.tensor([-100, 50], dtype=torch.int8)
print(torch.result_type(u, 1000), torch.result_type(u, 2.5), torch.result_type(u, True))
print(torch.result_type(u, torch.tensor(1)), torch.result_type(u, torch.tensor([1])),
      torch.result_type(u, i8), torch.result_type(i8, torch.tensor(1, dtype=torch.uint8)))
print(torch.can_cast(torch.uint8, torch.int8), torch.can_cast(torch.float32, torch.uint8),
      torch.can_cast(torch.int16, torch.bool))

# --- conversions
f = torch.tensor([-1.0, -1.5, 300.0, -300.0, 255.9, 256.0, 1e10, 127.5, -128.7, 32768.0])
for d in small:
    print(d, f.to(d), f.double().to(d).tolist(), f.half().to(d).tolist())
big = torch.tensor([300, -1, 70000, -70000, 2 ** 40 + 5])
print(big.to(torch.uint8), big.to(torch.int8), big.to(torch.int16))
print(torch.tensor([300]).to(torch.uint8), big.byte(), big.char(), big.short())
print(u.float(), u.double(), u.half(), u.bfloat16(), u.long(), u.int(), u.bool())
print(i8.to(torch.uint8), i8.to(torch.int16), u.to(torch.int8), torch.tensor([True, False]).byte())
print(u.type(), i8.type(), u.short().type(), u.type(torch.ShortTensor), i8.type(torch.ByteTensor))
print(u.type("torch.CharTensor"), u.type(torch.int16).dtype, i8.type_as(u))
print((torch.tensor([1, -2, 3]) > 0).byte(), torch.tensor([1, 0, 2]).byte().bool())
print(u.tolist(), i8.tolist(), u[0].item(), type(u[0].item()).__name__, int(i8[0]), float(u[1]))
print(u.element_size(), i8.short().element_size(), u.nbytes, u.is_signed(), i8.is_signed())

# --- arithmetic and comparisons
a = torch.tensor([200, 100, 7, 0], dtype=torch.uint8)
b = torch.tensor([100, 200, 2, 3], dtype=torch.uint8)
print(a + b, a - b, a * b, a + 300, a - 1, 1 - a, a * 2, -a, a.neg())
print(a / b, a // b, a % b, a / 2, a // 3, a % 3, a ** 2, a * 2.5, a + True)
print(torch.div(a, b, rounding_mode="floor"), torch.div(a, b, rounding_mode="trunc"))
attempt(lambda: a // torch.zeros(4, dtype=torch.uint8))
attempt(lambda: a ** -1)
c = torch.tensor([-128, -7, 7, 127], dtype=torch.int8)
print(c + c, c - 1, c * 3, -c, c.abs(), c // 2, c % 3, c // -2, torch.fmod(c, 3), c.sign())
print(a.abs(), a.sign(), torch.remainder(a, 3), torch.maximum(a, b), torch.minimum(a, b))
print(a + c, a * c, a + torch.tensor([1, 2, 3, 4], dtype=torch.int16), c + 1000, c.short() * 300)
s = torch.tensor([30000, -30000, 100], dtype=torch.int16)
print(s + s, s * 2, s // 7, s.abs(), s + torch.tensor(1), s + torch.tensor([1]), s * 1.5)
print(a > b, a == 200, a > -1, a == 456, a < 2.5, c < 0, c >= -7, s != 100, a.eq(b), a.gt(c))
print(a.clamp(5, 150), c.clamp(min=0), a.clamp(max=100), torch.clamp(s, -100, 100))
y = a.clone()
y += 100
y *= 3
y -= b
print(y, y.dtype)
attempt(lambda: y.add_(1.5))
print(a.sqrt(), c.exp(), s.float().mean(), a.sigmoid().dtype, torch.sin(c).dtype)
print(torch.where(a > 50, a, b), torch.where(c > 0, c, 0), torch.where(a > 50, a, c))
print(a.masked_fill(a > 100, 9), c.masked_fill(c < 0, -1), a.masked_fill(a > 100, -1))
attempt(lambda: a.masked_fill(a > 100, 256))

# --- bitwise
m = torch.tensor([0, 5, 255, 128], dtype=torch.uint8)
n = torch.tensor([-8, 5, -1, 127], dtype=torch.int8)
print(m & 12, m | 3, m ^ 255, ~m, m >> 1, m << 1, m >> 9, m & m.flip(0))
print(n & 12, n | 3, n ^ -1, ~n, n >> 1, n << 1, torch.bitwise_not(n), n.bitwise_and(m))
print(m.bitwise_xor(torch.tensor(7, dtype=torch.uint8)), (m > 4) & (m < 200), ~(m > 4))

# --- reductions
img = torch.arange(48, dtype=torch.uint8).reshape(3, 4, 4) * 5
print(img.sum(), img.sum().dtype, img.sum(0), img.sum(dim=(1, 2)), img.prod(dtype=torch.int64))
print(img.max(), img.min(), img.amax(dim=0), img.argmax(), img.max(dim=1))
print(c.sum(), c.sum().dtype, c.cumsum(0), c.prod(), c.max(), c.min(), c.argmin(), s.sum())
print(img.float().mean(), img.sum(dtype=torch.uint8), img.sum(0, dtype=torch.int16).dtype)
# (the message only: Kiln raises these as NotImplementedError, a RuntimeError subclass)
for f in [lambda: img.mean(), lambda: img.std()]:
    try:
        f()
    except RuntimeError as e:
        print(e)
print(img.any(), img.all(dim=0)[0], torch.tensor([1, 0], dtype=torch.int8).any(), (img > 200).all())
print(img.count_nonzero(), img.unique()[:6], img.sort(dim=2)[0][0])
print(torch.topk(c, 2), c.sort(), torch.bincount(torch.tensor([1, 1, 3], dtype=torch.uint8)))
print(torch.stack([a, b]), torch.cat([a, b]).shape, torch.cat([a, c]), a.view(2, 2).t())
print(a.reshape(2, 2).contiguous().dtype, a.unsqueeze(0).expand(2, 4).sum(0))

# --- masks and indices
x = torch.arange(6).reshape(2, 3)
mask = torch.tensor([[1, 0, 1], [0, 0, 1]], dtype=torch.uint8)
print(x[mask], x[mask.bool()], x[:, mask[0]], torch.where(mask, x, -1))
z = x.clone()
attempt(lambda: assign(z, mask, 0))
attempt(lambda: assign(z, mask, torch.tensor([7])))
attempt(lambda: assign(z, (1, mask[0]), 5))
z[mask] = torch.tensor([7, 8, 9])
print(z)
z[torch.tensor([0, 1], dtype=torch.uint8)] = torch.tensor([8, 9, 10])
z[mask.bool()] = 1
print(z)
attempt(lambda: x.masked_fill(mask, 0))
attempt(lambda: x.masked_select(mask))
print(x.masked_select(mask.bool()), x.masked_fill(mask.bool(), 0))
attempt(lambda: x[torch.tensor([0, 1], dtype=torch.int8)])
print(x[torch.tensor([1, 0], dtype=torch.int64)], torch.nonzero(mask), mask.nonzero().dtype)
print(torch.tensor([[1.5, 2.5]])[torch.tensor([True])], x.index_select(1, torch.tensor([2, 0])))

# --- compiled functions over uint8 images
graphs = []


def counting(gm, example_inputs):
    graphs.append([str(n.target).split(" at ")[0] for n in gm.graph.nodes
                   if n.op in ("call_function", "call_method")])
    return gm.forward


def normalise(image):
    x = image.float() / 255
    return (x - 0.5) / 0.5


def brighten(image, amount):
    return (image.to(torch.int16) + amount).clamp(0, 255).to(torch.uint8)


def threshold(image):
    return ((image > 128).to(torch.uint8) * 255, image // 4 + image % 4, image.sum(dim=-1))


def mix(a, b):
    return a + b, a - b, a * b, (a > b) & (a > 10), torch.maximum(a, b), a.amax(dim=0)


def signed(c, s):
    return c + s, c * 3, c // 2, c.abs(), (c < 0).sum(), s.float() / 32768, c.to(torch.uint8)


images = torch.arange(2 * 3 * 4 * 4).reshape(2, 3, 4, 4).mul(37).to(torch.uint8)
other = images.flip(-1)
cs = torch.arange(-12, 12, dtype=torch.int8).reshape(4, 6) * 10
ss = torch.arange(24, dtype=torch.int16).reshape(4, 6) * 1500 - 16000
cases = [(normalise, (images,)), (brighten, (images, 100)), (threshold, (images,)),
         (mix, (images, other)), (signed, (cs, ss))]
for fn, args in cases:
    eager = fn(*args)
    eager = eager if isinstance(eager, tuple) else (eager,)
    for backend in [counting, "inductor"]:
        graphs.clear()
        torch._dynamo.reset()
        got = torch.compile(fn, backend=backend)(*args)
        got = got if isinstance(got, tuple) else (got,)
        same = all(g.dtype == e.dtype and torch.equal(g, e) if not e.is_floating_point()
                   else torch.allclose(g, e) for g, e in zip(got, eager))
        graphCount = len(graphs) if backend is counting else "-"
        print(fn.__name__, "counting" if backend is counting else backend, graphCount, same,
              [g.dtype for g in got])
print(normalise(images)[0, 0, 0], brighten(images, 100)[1, 2, 3], threshold(images)[1][0, 0])

# --- the dtypes Kiln has no tensors of: the objects exist
names = ["complex64", "cfloat", "complex128", "cdouble", "complex32", "chalf", "float8_e4m3fn",
         "float8_e5m2", "uint16", "uint32", "uint64", "qint8", "quint8", "qint32", "bits8"]
print([n for n in names if not hasattr(torch, n)])
print(torch.cfloat, torch.cfloat is torch.complex64, torch.cdouble == torch.complex128,
      torch.complex64 == torch.float32, isinstance(torch.complex64, torch.dtype))
for n in ["complex64", "complex128", "float8_e4m3fn", "uint16", "qint8"]:
    d = getattr(torch, n)
    print(d, d.itemsize, d.is_floating_point, d.is_complex)
print(torch.ones(2).dtype in (torch.complex64, torch.complex128), torch.float8_e5m2.is_signed)
