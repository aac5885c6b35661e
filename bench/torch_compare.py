#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Kiln's compiler against real torch.compile (Inductor's C++ backend) on this CPU, in one run.

Runs kiln-bench-compiler (Kiln: eager, default, max-autotune-no-cudagraphs), then the same
workloads under PyTorch with the same thread count, and prints both tables and the ratio
Kiln/Inductor per workload and mode (below 1.0: Kiln is faster). Writes JSON with every number.
The thread count is the number of cores this process may run on (taskset), or --threads.
max-autotune's compile time is shown cold (empty tuning cache) and warm (a second run).
Needs `pip install torch`; Kiln itself never does.

    python3 bench/torch_compare.py [--kiln build/bin/kiln-bench-compiler] [--quick] [--threads N]
                                   [--json F]
    python3 bench/torch_compare.py --workload resources/workloads/bench/resnet18.py [...]

With --workload (repeatable), the workloads are those files (fn and make_inputs, as for `kiln
bench`), run by `kiln bench` (--kiln-cli, default build/bin/kiln) and by PyTorch in this process.

--isa avx2 runs both systems as on a CPU without AVX-512, on one that has it: oneDNN's kernels
capped at AVX2 (ONEDNN_MAX_CPU_ISA) in both, Kiln's own kernels too (KILN_CPU_ISA), PyTorch's
eager kernels (ATEN_CPU_CAPABILITY) and Inductor's generated C++ (cpp.simdlen = 256).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def workloads(quick):
    import torch
    import torch.nn.functional as F

    n = 2**20 if quick else 2**24
    rows = 1024 if quick else 4096
    mlp = 256 if quick else 1024

    def sin_cos(x):
        return torch.sin(x) + torch.cos(x)

    def softmax_rows(x):
        m = x.amax(-1, keepdim=True)
        e = (x - m).exp()
        return e / e.sum(-1, keepdim=True)

    def gelu_layer_norm(x):
        return F.gelu(F.layer_norm(x, (4096,)))

    def mlp_fn(x, w1, b1, w2, b2):
        return F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2)

    torch.manual_seed(0)
    return [
        ("sin_cos", sin_cos, (torch.randn(n),)),
        ("softmax_rows", softmax_rows, (torch.randn(rows, 4096),)),
        ("gelu_layer_norm", gelu_layer_norm, (torch.randn(rows, 4096),)),
        ("mlp", mlp_fn, (torch.randn(mlp, 1024), torch.randn(4096, 1024) * 0.03,
                         torch.randn(4096) * 0.03, torch.randn(1024, 4096) * 0.015,
                         torch.randn(1024) * 0.03)),
    ]


def file_workloads(paths):
    """(name, fn, inputs) of each workload file, run as a script as `kiln bench` runs it."""
    import torch

    out = []
    for path in paths:
        namespace = {"__name__": "kiln_workload", "__file__": path}
        with open(path) as f:
            exec(compile(f.read(), path, "exec"), namespace)
        torch.manual_seed(0)
        name = os.path.splitext(os.path.basename(path))[0]
        # A training workload gives make_step(mode) (it compiles its model itself) for fn.
        fn = namespace.get("make_step") or namespace["fn"]
        out.append((name, fn, namespace["make_inputs"]()))
    return out


def measure_torch(quick, calls, threads, files=()):
    import torch
    import torch._dynamo

    torch.set_num_threads(threads)
    if os.environ.get("ATEN_CPU_CAPABILITY") == "avx2":
        import torch._inductor.config

        torch._inductor.config.cpp.simdlen = 256
    out = []
    for name, fn, inputs in (file_workloads(files) if files else workloads(quick)):
        for mode in ("eager", "default", "max-autotune-no-cudagraphs"):
            torch._dynamo.reset()
            if getattr(fn, "__name__", "") == "make_step":
                torch.manual_seed(0)
                f = fn(mode)
            else:
                f = fn if mode == "eager" else torch.compile(fn, mode=None if mode == "default" else mode)
            t0 = time.perf_counter()
            f(*inputs)
            first = (time.perf_counter() - t0) * 1e3
            times = []
            for _ in range(calls):
                t0 = time.perf_counter()
                f(*inputs)
                times.append((time.perf_counter() - t0) * 1e3)
            out.append({"workload": name, "mode": mode, "first_call_ms": first,
                        "median_ms": statistics.median(times)})
            print(f"torch {name:16s} {mode:27s} first call {first:9.1f} ms  median {out[-1]['median_ms']:9.3f} ms",
                  flush=True)
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--kiln", default=os.path.join(here, "..", "build", "bin", "kiln-bench-compiler"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--calls", type=int, default=10)
    ap.add_argument("--json", default="torch-compare.json")
    ap.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--workload", action="append", default=[])
    ap.add_argument("--kiln-cli", default=os.path.join(here, "..", "build", "bin", "kiln"))
    ap.add_argument("--isa", choices=["avx2"], help="run both as on a CPU without AVX-512")
    args = ap.parse_args()
    if args.isa == "avx2":
        # Set before torch is imported: PyTorch reads ATEN_CPU_CAPABILITY once.
        os.environ.update(ONEDNN_MAX_CPU_ISA="AVX2", KILN_CPU_ISA="avx2",
                          ATEN_CPU_CAPABILITY="avx2")

    kiln_json = args.json + ".kiln"
    cmd = [args.kiln, "--json", kiln_json] + (["--quick"] if args.quick else [])
    if args.workload:
        cmd = ([args.kiln_cli, "bench"] + args.workload +
               ["--calls", str(args.calls), "--json", kiln_json])
    print("$ " + " ".join(cmd), flush=True)
    env = dict(os.environ, KILN_NUM_THREADS=str(args.threads), OMP_NUM_THREADS=str(args.threads))
    subprocess.run(cmd, check=True, env=env)
    with open(kiln_json) as f:
        kiln = json.load(f)
    torch_rows = measure_torch(args.quick, args.calls, args.threads, args.workload)

    print(f"\n{args.threads} threads" + (", as on an AVX2 CPU" if args.isa else ""))
    print(f"{'workload':16s} {'mode':27s} {'kiln ms':>9s} {'torch ms':>9s} {'kiln/torch':>10s}"
          f" {'kiln 1st':>9s} {'torch 1st':>9s} {'kiln compile':>12s} {'warm':>7s}")
    table = []
    for t in torch_rows:
        k = next((r for r in kiln if r["workload"] == t["workload"] and r["mode"] == t["mode"]), None)
        if not k or not k["ok"]:
            continue
        ratio = k["median_ms"] / t["median_ms"]
        warm = k.get("compile_ms_warm_tuning_cache")
        table.append({**t, "kiln_median_ms": k["median_ms"], "kiln_first_call_ms": k["first_call_ms"],
                      "kiln_compile_ms": k["compile_ms"], "kiln_compile_ms_warm_tuning_cache": warm,
                      "ratio_kiln_to_torch": ratio})
        warm_text = f"{warm / 1e3:6.2f}s" if warm is not None else "      -"
        compile_text = f"{k['compile_ms'] / 1e3:11.2f}s" if t["mode"] != "eager" else "           -"
        print(f"{t['workload']:16s} {t['mode']:27s} {k['median_ms']:9.3f} {t['median_ms']:9.3f}"
              f" {ratio:9.2f}x {k['first_call_ms']:9.1f} {t['first_call_ms']:9.1f} {compile_text}"
              f" {warm_text}")
    with open(args.json, "w") as f:
        json.dump({"threads": args.threads, "isa": args.isa, "rows": table}, f, indent=2)
    print(f"\nresults written to {args.json}")


if __name__ == "__main__":
    sys.exit(main())
