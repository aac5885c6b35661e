# os for Kiln workloads, limited to what cannot touch the machine: os.environ is an empty
# mapping local to the script (the real environment is never visible, so a workload reads the
# same values wherever it runs; it may set its own keys), os.path's string functions, and the
# constants. Everything that would reach the file system or other processes is absent.
import posixpath as path

name = "posix"
sep = "/"
altsep = None
extsep = "."
pathsep = ":"
curdir = "."
pardir = ".."
linesep = "\n"
devnull = "/dev/null"


class _Environ:
    def __init__(self):
        self._data = {}

    def _check(self, value):
        if not isinstance(value, str):
            raise TypeError(f"str expected, not {type(value).__name__}")
        return value

    def __getitem__(self, key):
        if key not in self._data:
            raise KeyError(key)
        return self._data[key]

    def __setitem__(self, key, value):
        self._data[self._check(key)] = self._check(value)

    def __delitem__(self, key):
        if key not in self._data:
            raise KeyError(key)
        del self._data[key]

    def __contains__(self, key):
        return key in self._data

    def __iter__(self):
        return iter(list(self._data))

    def __len__(self):
        return len(self._data)

    def get(self, key, default=None):
        return self._data.get(key, default)

    def setdefault(self, key, default=None):
        if key not in self._data:
            self[key] = default
        return self._data[key]

    def pop(self, key, *default):
        return self._data.pop(key, *default)

    def keys(self):
        return self._data.keys()

    def values(self):
        return self._data.values()

    def items(self):
        return self._data.items()

    def copy(self):
        return dict(self._data)

    def update(self, other=(), **kwargs):
        if isinstance(other, dict):
            other = other.items()
        for key, value in other:
            self[key] = value
        for key, value in kwargs.items():
            self[key] = value

    def __repr__(self):
        return f"environ({self._data!r})"


environ = _Environ()


def getenv(key, default=None):
    return environ.get(key, default)


def putenv(key, value):
    environ[key] = value


def unsetenv(key):
    environ.pop(key, None)


def fspath(p):
    if isinstance(p, str):
        return p
    raise TypeError(f"expected str, bytes or os.PathLike object, not {type(p).__name__}")


def _unavailable(name):
    def fn(*args, **kwargs):
        raise NotImplementedError(
            f"os.{name}() is not available in Kiln workloads: scripts cannot read or write "
            "files, or reach the network and other processes")
    fn.__name__ = name
    return fn


getcwd = _unavailable("getcwd")
listdir = _unavailable("listdir")
makedirs = _unavailable("makedirs")
mkdir = _unavailable("mkdir")
remove = _unavailable("remove")
rename = _unavailable("rename")
system = _unavailable("system")
walk = _unavailable("walk")
getpid = _unavailable("getpid")
cpu_count = _unavailable("cpu_count")
