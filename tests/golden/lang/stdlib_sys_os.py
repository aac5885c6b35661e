# sys and os limited to what cannot touch the machine: the version, argv, maxsize, stdout and
# stderr writes, SystemExit; os.environ (empty and local to the script), os.path's string
# functions.
import os
import os.path
import sys
from os.path import basename, join

print(sys.version_info[:2] >= (3, 11), sys.version_info.major, sys.version_info >= (3, 8))
print(sys.maxsize == 9223372036854775807, os.path.basename(sys.argv[0]), len(sys.argv), sys.platform)
n = sys.stdout.write("written without newline|")
sys.stdout.write(str(n) + "\n")
sys.stdout.flush()
sys.stderr.write("to stderr\n")
print("after", file=sys.stdout)
print(os.environ.get("KILN_SURELY_UNSET_VARIABLE"), os.getenv("ALSO_UNSET", "fallback"))
print("ALSO_UNSET" in os.environ)
os.environ["MY_FLAG"] = "1"
print(os.environ["MY_FLAG"], os.getenv("MY_FLAG"), os.environ.get("MY_FLAG", "0"))
try:
    os.environ["MISSING_KEY_FOR_KILN"]
except KeyError as e:
    print("KeyError:", e)
print(join("ckpt", "run1", "model.pt"), join("/abs", "x"), join("a/", "b"), join("a", "/b"))
print(os.path.split("/a/b/c.txt"), os.path.split("file"), os.path.split("/"), basename("a/b/"))
print(os.path.dirname("a/b/c"), os.path.splitext("model.tar.gz"), os.path.splitext(".bashrc"))
print(os.path.splitext("a.b/c"), os.path.normpath("a//b/./c/../d"), os.path.normpath("/../x"))
print(os.path.isabs("/x"), os.path.isabs("x"), os.sep, os.path.commonprefix(["abc", "abd"]))
print(os.path.join is join)


def finish():
    sys.exit(0)


try:
    sys.exit(3)
except SystemExit as e:
    print("SystemExit", e.code)
try:
    sys.exit("message")
except SystemExit as e:
    print("SystemExit", e.code)
finish()
print("not reached")
