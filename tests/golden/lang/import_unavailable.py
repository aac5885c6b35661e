# A module Kiln does not provide is CPython's ModuleNotFoundError (with its name); Kiln adds a
# note under the traceback saying that workloads cannot import it (numpy's note says numpy is
# not available; CPython on the recording machine has numpy, so it is not imported here).
try:
    import no_such_module_for_kiln as np
except ModuleNotFoundError as e:
    print(type(e).__name__, e, e.name, isinstance(e, ImportError))
try:
    import no_such_package_for_kiln.linalg
except ImportError as e:
    print(type(e).__name__, e, e.name)
try:
    from no_such_module_for_kiln import get
except ModuleNotFoundError as e:
    print(type(e).__name__, e, e.name)
