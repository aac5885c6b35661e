# SPDX-License-Identifier: MIT
# Kiln and real torch.compile side by side on the GPU workloads of performance-anchors.md, in
# one call on the GPU machine (torch 2.11 + Triton there; Kiln itself never needs Python).
#
#   python3 side_by_side.py --kiln KILN [--out results.json] [--skip-torch]
#
# Kiln side: runs `KILN run bench/gpu/workloads/anchors.py` three times: with an empty kernel
# cache as the machine's first Kiln process (on a freshly started H200 machine its NVRTC
# compiles took 0.1-0.35 s a kernel, against 0.03 s in the next process), again with an empty
# cache (cold: NVRTC compiles everything), then with that cache (warm). It reads the KILN lines
# (first-call time, wall time per call, eager time per call by CUDA events) and the trace's
# kernel_launches (CUPTI records): kernel time per call is the median over the timed calls of the sum of the
# graph's kernel durations in that call.
# Torch side: the same functions and shapes under torch.compile (Inductor, default mode): the
# first call's time, wall time per call, kernel time per call (torch.profiler's CUPTI kernel
# records summed over the timed calls) and eager time per call by CUDA events.
import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOAD = os.path.join(HERE, "workloads", "anchors.py")
WARMUP_CALLS = 4  # the first call and three warm-up calls before the timed ones
# The timed calls per workload: anchors.CALLS (read from the file, which imports torch).
CALLS = int(re.search(r"^CALLS = (\d+)", open(WORKLOAD).read(), re.M).group(1))


def kiln_side(kiln, calls, cache_dir, label):
    db = os.path.join(tempfile.mkdtemp(), f"anchors-{label}.kiln")
    env = dict(os.environ, KILN_KERNEL_CACHE_DIR=cache_dir)
    t0 = time.time()
    proc = subprocess.run([kiln, "run", "--db", db, WORKLOAD], env=env, capture_output=True,
                          text=True, timeout=900)
    entries = len(os.listdir(cache_dir)) if os.path.isdir(cache_dir) else 0
    print(f"kiln {label}: rc={proc.returncode} in {time.time() - t0:.1f} s; kernel cache "
          f"{cache_dir} holds {entries} entries", flush=True)
    if proc.returncode != 0:
        print(proc.stdout[-3000:], proc.stderr[-3000:])
    rows = {}
    for line in proc.stdout.splitlines():
        if not line.startswith("KILN "):
            continue
        name = re.search(r"name=(.*?) first_call_s=", line).group(1)
        rest = "first_call_s=" + line.split(" first_call_s=", 1)[1]
        fields = dict(re.findall(r"(\w+)=([0-9.]+)", rest))
        rows[name] = {k: float(v) for k, v in fields.items()}
    kernel_times = kernel_time_per_call(db, calls + WARMUP_CALLS)
    for name, per_call in zip(rows, kernel_times):
        rows[name]["compile"] = compile_phases(db, per_call["compile_id"])
        rows[name]["kernel_us"] = per_call["kernel_us"]
        rows[name]["kernels"] = per_call["kernels"]
        rows[name]["launches_per_call"] = per_call["launches_per_call"]
    return rows, db


def kernel_time_per_call(db, total_calls):
    """Per compiled graph (in the order they first ran): median per-call kernel time."""
    con = sqlite3.connect(db)
    run = con.execute("select max(id) from runs").fetchone()[0]
    launches = con.execute(
        "select k.compile_id, l.kernel_id, l.end_ns - l.start_ns, l.start_ns from "
        "kernel_launches l join kernels k on k.run_id = l.run_id and k.kernel_id = l.kernel_id "
        "where l.run_id = ? and l.device like 'cuda%' order by l.start_ns", (run,)).fetchall()
    graphs = {}
    for compile_id, kernel_id, duration, start in launches:
        graphs.setdefault(compile_id, {}).setdefault(kernel_id, []).append(duration)
    out = []
    for compile_id, kernels in graphs.items():
        if max(len(d) for d in kernels.values()) < total_calls:
            continue  # anchors.warm_up()'s graph: called once
        per_call = [0.0] * total_calls
        launches_per_call = 0
        for durations in kernels.values():
            per = max(1, len(durations) // total_calls)  # cuBLASLt may run several kernels
            launches_per_call += per
            for i in range(min(total_calls, len(durations) // per)):
                per_call[i] += sum(durations[i * per:(i + 1) * per]) / 1000.0
        timed = sorted(per_call[WARMUP_CALLS:])
        out.append({"compile_id": compile_id, "kernels": len(kernels),
                    "launches_per_call": launches_per_call,
                    "kernel_us": timed[len(timed) // 2] if timed else 0.0})
    return out


def compile_phases(db, compile_id):
    """The compile's seconds in all and per phase (trace includes the eager ops the tracer ran,
    and with them the NVRTC compiles of their kernels; backend_compile the graph's)."""
    con = sqlite3.connect(db)
    run = con.execute("select max(id) from runs").fetchone()[0]
    row = con.execute("select duration_ns, phases_json from compiles where run_id = ? and "
                      "compile_id = ?", (run, compile_id)).fetchone()
    if not row:
        return {}
    phases = json.loads(row[1]) if row[1] else {}
    return {"total_s": (row[0] or 0) / 1e9, **{k: v / 1e9 for k, v in phases.items()}}


def torch_side():
    # performance-anchors.md: Inductor's caches off, and Triton's in a fresh directory, so
    # torch's first call compiles everything, as Kiln's cold run does.
    os.environ.setdefault("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "1")
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cache-"))
    import torch

    sys.path.insert(0, os.path.dirname(WORKLOAD))
    import anchors  # the same functions and shapes the Kiln side runs

    torch.manual_seed(0)
    cases = anchors.workloads()

    def kernel_us(fn, inputs):
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(anchors.CALLS):
                fn(*inputs)
            torch.cuda.synchronize()
        total = 0.0
        for e in prof.events():
            if str(getattr(e, "device_type", "")).endswith("CUDA"):
                total += getattr(e, "device_time", None) or getattr(e, "cuda_time", 0.0)
        return total / anchors.CALLS

    rows = {}
    with torch.no_grad():
        anchors.warm_up()
        for name, fn, inputs in cases:
            torch._dynamo.reset()
            compiled = torch.compile(fn)
            first, wall = anchors.compiled_times(compiled, inputs)
            rows[name] = {"first_call_s": first, "wall_us": wall,
                          "kernel_us": kernel_us(compiled, inputs),
                          "eager_us": anchors.eager_us(fn, inputs)}
            print(f"torch {name}: {rows[name]}", flush=True)
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kiln", required=True)
    p.add_argument("--out", default="side_by_side.json")
    p.add_argument("--skip-torch", action="store_true")
    a = p.parse_args()
    first, _ = kiln_side(a.kiln, CALLS, tempfile.mkdtemp(prefix="kiln-cache-"), "first process")
    cache = tempfile.mkdtemp(prefix="kiln-cache-")
    cold, cold_db = kiln_side(a.kiln, CALLS, cache, "cold")
    warm, warm_db = kiln_side(a.kiln, CALLS, cache, "warm")
    torch_rows = {} if a.skip_torch else torch_side()
    header = (f"{'workload':30s} {'kiln kernel':>11s} {'torch kernel':>12s} {'ratio':>6s} "
              f"{'kiln wall':>10s} {'torch wall':>10s} {'kiln eager':>10s} {'torch eager':>11s} "
              f"{'kiln 1st cold':>13s} {'kiln 1st warm':>13s} {'torch 1st':>9s}")
    print(header)
    for name, k in warm.items():
        t = torch_rows.get(name, {})
        c = cold.get(name, {})
        ratio = k.get("kernel_us", 0) / t["kernel_us"] if t.get("kernel_us") else float("nan")
        print(f"{name:30s} {k.get('kernel_us', 0):9.1f}us {t.get('kernel_us', 0):10.1f}us "
              f"{ratio:6.3f} {k.get('wall_us', 0):8.1f}us {t.get('wall_us', 0):8.1f}us "
              f"{k.get('eager_us', 0):8.1f}us {t.get('eager_us', 0):9.1f}us "
              f"{c.get('first_call_s', 0):12.3f}s {k.get('first_call_s', 0):12.3f}s "
              f"{t.get('first_call_s', 0):8.3f}s")
    print("\nKiln's first process on this machine, empty kernel cache: first call (s)")
    for name, c in first.items():
        print(f"{name:30s} {c.get('first_call_s', 0):.3f}")
    print("\nKiln cold first call: compile phases (s)")
    for name, c in cold.items():
        phases = c.get("compile", {})
        print(f"{name:30s} " + " ".join(f"{k}={v:.3f}" for k, v in phases.items()))
    with open(a.out, "w") as f:
        json.dump({"kiln_first_process": first, "kiln_cold": cold, "kiln_warm": warm, "torch": torch_rows,
                   "kiln_traces": [cold_db, warm_db]}, f, indent=1)


if __name__ == "__main__":
    main()
