#!/usr/bin/env python3
"""Re-records the expected output of the golden scripts with real CPython (and PyTorch).

Usage: python3 tests/golden/record.py [SCRIPT ...]

For every tests/golden/<suite>/<name>.py (and every resources/workloads/<name>.py, recorded into
tests/golden/workloads/) it writes <name>.out (stdout) and, when the script
exits with an error, <name>.err (stderr with the script's directory replaced by <dir>) and
<name>.exit (the exit status). Kiln's own test suite never runs Python: it compares Kiln's
output with these recordings. Run this after changing or adding a script, and commit the
results. Requires python3 with torch installed (pip install torch).
"""
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
SUITES = ["lang", "torch", "errors", "compile", "models"]
# The bundled example workloads are checked too; their recordings live in golden/workloads/.
WORKLOADS = HERE.parent.parent / "resources" / "workloads"
# Workloads that need parts of Kiln not built yet are not recorded (the test skips them).
UNRECORDED_WORKLOADS = set()


def expectation_base(script: pathlib.Path) -> pathlib.Path:
    if script.parent == WORKLOADS:
        return HERE / "workloads" / script.stem
    return script.with_suffix("")


def torch_version() -> str:
    proc = subprocess.run([sys.executable, "-c", "import torch; print(torch.__version__)"],
                          capture_output=True, text=True)
    return proc.stdout.strip()


SPEC_MARK = "# Recorded with torch==2.3.1"


def needs_spec_torch(script: pathlib.Path) -> bool:
    # The model corpus, and scripts marked so in their header, record the specification's
    # PyTorch (2.3): its capture records each torch.nn layer as a call_module node and guards
    # nothing read through an nn.Module (guard_nn_modules=False); newer releases differ.
    return script.parent.name == "models" or SPEC_MARK in script.read_text()


def record(script: pathlib.Path) -> None:
    if needs_spec_torch(script) and not torch_version().startswith("2.3"):
        print(f"skipped {script.name}: recorded with torch==2.3.1 "
              f"(this Python has torch {torch_version() or 'none'}); see README.md")
        return
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, script.name], cwd=script.parent, env=env,
                          capture_output=True, text=True, timeout=600)
    base = expectation_base(script)
    base.parent.mkdir(exist_ok=True)
    base.with_suffix(".out").write_text(proc.stdout)
    err = base.with_suffix(".err")
    status = base.with_suffix(".exit")
    if proc.returncode != 0:
        err.write_text(proc.stderr.replace(str(script.parent), "<dir>"))
        status.write_text(f"{proc.returncode}\n")
    else:
        for stale in (err, status):
            if stale.exists():
                stale.unlink()
    print(f"{proc.returncode:3d} {script.relative_to(HERE.parent.parent)}")


def main() -> None:
    if len(sys.argv) > 1:
        scripts = [pathlib.Path(a).resolve() for a in sys.argv[1:]]
    else:
        scripts = sorted(p for s in SUITES for p in (HERE / s).glob("*.py"))
        scripts += sorted(p for p in WORKLOADS.glob("*.py") if p.name not in UNRECORDED_WORKLOADS)
    for script in scripts:
        record(script)


if __name__ == "__main__":
    main()
