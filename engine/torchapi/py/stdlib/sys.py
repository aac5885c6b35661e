# sys for Kiln workloads: what a script may know without touching the machine. argv is the
# script alone (Kiln passes no arguments), the version is the Python that Kiln implements
# (3.11), stdout/stderr write into the run's recorded output; there is no stdin, no path
# manipulation and no access to the interpreter's modules table.
import __main__


class _VersionInfo:
    def __init__(self, major, minor, micro, releaselevel, serial):
        self.major = major
        self.minor = minor
        self.micro = micro
        self.releaselevel = releaselevel
        self.serial = serial

    def _tuple(self):
        return (self.major, self.minor, self.micro, self.releaselevel, self.serial)

    def __repr__(self):
        return (f"sys.version_info(major={self.major}, minor={self.minor}, micro={self.micro}, "
                f"releaselevel={self.releaselevel!r}, serial={self.serial})")

    def __getitem__(self, index):
        return self._tuple()[index]

    def __len__(self):
        return 5

    def __iter__(self):
        return iter(self._tuple())

    def __eq__(self, other):
        return self._tuple() == tuple(other)

    def __lt__(self, other):
        return self._tuple()[:len(other)] < tuple(other)

    def __le__(self, other):
        return self._tuple()[:len(other)] <= tuple(other)

    def __gt__(self, other):
        return self._tuple()[:len(other)] > tuple(other)

    def __ge__(self, other):
        return self._tuple()[:len(other)] >= tuple(other)


class _TextStream:
    # print(file=...) recognises these by name and writes to the run's stdout or stderr.
    def __init__(self, name):
        self.name = name
        self.encoding = "utf-8"

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        print(s, end="", file=self)
        return len(s)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        pass

    def isatty(self):
        return False

    def __repr__(self):
        return f"<_io.TextIOWrapper name={self.name!r} mode='w' encoding='utf-8'>"


version_info = _VersionInfo(3, 11, 0, "final", 0)
version = "3.11.0 (Kiln workload interpreter)"
hexversion = 0x030B00F0
implementation_name = "kiln"
platform = "linux"
byteorder = "little"
maxsize = 9223372036854775807
argv = [__main__.__file__]
orig_argv = list(argv)
executable = ""
path = []
flags = None
stdout = _TextStream("<stdout>")
stderr = _TextStream("<stderr>")
__stdout__ = stdout
__stderr__ = stderr


def exit(status=None):
    raise SystemExit(status)


def getrecursionlimit():
    return 1000


def getdefaultencoding():
    return "utf-8"
