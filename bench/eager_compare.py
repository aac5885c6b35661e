#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Kiln's eager kernels against PyTorch's, op by op, on this CPU, in one run.

Runs `kiln bench bench/eager_ops/*.py --modes eager` (each file defines fn(x, y) over 4096 x 4096
float32 tensors), then the same functions under PyTorch eager with the same thread count, and
prints the medians and the ratio Kiln/PyTorch per op (below 1.0: Kiln is faster). Writes JSON.
The thread count is the number of cores this process may run on (taskset), or --threads.
Needs `pip install torch`; Kiln itself never does.

    python3 bench/eager_compare.py [--kiln build/bin/kiln] [--threads N] [--calls N] [--json F]
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import time


def torch_medians(files, threads, calls):
    import torch

    torch.set_num_threads(threads)
    out = {}
    for path in files:
        namespace = {}
        with open(path) as f:
            exec(compile(f.read(), path, "exec"), namespace)
        torch.manual_seed(0)
        args = namespace["make_inputs"]()
        fn = namespace["fn"]
        fn(*args)
        times = []
        for _ in range(calls):
            t0 = time.perf_counter()
            fn(*args)
            times.append((time.perf_counter() - t0) * 1e3)
        out[os.path.splitext(os.path.basename(path))[0]] = statistics.median(times)
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--kiln", default=os.path.join(here, "..", "build", "bin", "kiln"))
    ap.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--calls", type=int, default=10)
    ap.add_argument("--json", default="eager-compare.json")
    args = ap.parse_args()

    files = sorted(glob.glob(os.path.join(here, "eager_ops", "*.py")))
    kiln_json = args.json + ".kiln"
    cmd = [args.kiln, "bench", *files, "--modes", "eager", "--calls", str(args.calls),
           "--json", kiln_json]
    env = dict(os.environ, KILN_NUM_THREADS=str(args.threads), OMP_NUM_THREADS=str(args.threads))
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
    with open(kiln_json) as f:
        kiln = {r["workload"]: r for r in json.load(f)}
    torch_ms = torch_medians(files, args.threads, args.calls)

    print(f"{args.threads} threads, 4096 x 4096 float32")
    print(f"{'op':16s} {'kiln ms':>9s} {'torch ms':>9s} {'kiln/torch':>10s}")
    rows = []
    for name, t in torch_ms.items():
        k = kiln.get(name)
        if not k or not k.get("ok"):
            print(f"{name:16s} kiln failed: {k.get('error') if k else 'no row'}")
            continue
        ratio = k["median_ms"] / t
        rows.append({"op": name, "kiln_ms": k["median_ms"], "torch_ms": t, "ratio": ratio})
        print(f"{name:16s} {k['median_ms']:9.3f} {t:9.3f} {ratio:9.2f}x")
    with open(args.json, "w") as f:
        json.dump({"threads": args.threads, "rows": rows}, f, indent=2)
    print(f"\nresults written to {args.json}")


if __name__ == "__main__":
    sys.exit(main())
