import math
import math as m
from math import sqrt, pi as PI, floor
print(math.sqrt(16), m.sqrt(9), sqrt(4), PI, floor(2.7), m is math)
def uses_import():
    import math as inner_math
    from math import ceil
    return inner_math.pi > 3, ceil(1.2)
print(uses_import())
print(type(math).__name__, math.__name__)
try:
    import no_such_module_xyz
except ImportError as e:
    print(type(e).__name__, e)
try:
    from math import no_such_name
except ImportError as e:
    print(type(e).__name__, str(e).startswith("cannot import name 'no_such_name' from 'math'"))
import math, math as mm
print(mm.floor(-0.5))
if True:
    from math import e as E
print(round(E, 5))
