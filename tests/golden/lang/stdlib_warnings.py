# warnings: categories, filters (default once per location, always, ignore, error, once),
# catch_warnings(record=True), formatwarning's text, a replaced showwarning.
import warnings

print(issubclass(DeprecationWarning, Warning), issubclass(UserWarning, Exception),
      [c.__name__ for c in FutureWarning.__mro__])
print(repr(warnings.formatwarning("msg", UserWarning, "f.py", 3, "x = 1  ")))
print(repr(warnings.formatwarning("msg", RuntimeWarning, "f.py", 3, "")))


def emit(message, category=UserWarning):
    warnings.warn(message, category, stacklevel=2)


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    warnings.warn("plain")
    warnings.warn(FutureWarning("as an instance"))
    emit("reported at the caller")
    warnings.warn("deprecated", DeprecationWarning)
print([(str(w.message), w.category.__name__, w.lineno) for w in caught])
print(type(caught[0].message).__name__, caught[0].filename == __file__)
with warnings.catch_warnings(record=True) as caught:
    for i in range(3):
        warnings.warn("same place")
    warnings.warn("other place")
    warnings.warn("other place")
print([str(w.message) for w in caught])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("once")
    for i in range(2):
        warnings.warn("once only")
    warnings.warn("once only")
print([str(w.message) for w in caught])
with warnings.catch_warnings(record=True) as caught:
    warnings.filterwarnings("ignore", message="noisy")
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    warnings.warn("noisy thing")
    warnings.warn("NOISY too")
    warnings.warn("kept")
    warnings.warn("runtime", RuntimeWarning)
    warnings.warn("pending", PendingDeprecationWarning)
print([str(w.message) for w in caught])
with warnings.catch_warnings():
    warnings.simplefilter("error")
    try:
        warnings.warn("now an error", FutureWarning)
    except FutureWarning as e:
        print("raised", type(e).__name__, e)
    try:
        warnings.warn("x", 3)
    except TypeError as e:
        print("TypeError:", e)
shown = []
saved = warnings.showwarning
warnings.showwarning = lambda message, category, filename, lineno, file=None, line=None: \
    shown.append((str(message), category.__name__))
warnings.warn("to the replacement")
warnings.showwarning = saved
print(shown)
try:
    warnings.simplefilter("bogus")
except AssertionError as e:
    print("AssertionError:", e)
