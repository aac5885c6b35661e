# SPDX-License-Identifier: MIT
# Real torch.compile (Inductor, default mode) kernel by kernel, on the GPU machine: for each
# workload of bench/gpu/workloads/anchors.py (or those named on the command line), the kernels
# of one call with their mean CUPTI duration over CALLS calls, printed as a table and written
# as JSON. With TORCH_LOGS=output_code in the environment Inductor also prints its generated
# code, which says how it fused what Kiln's table shows as separate kernels.
#
#   python3 torch_kernels.py OUT.json [workload-name-substring ...]
import json
import os
import sys
from collections import defaultdict

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "workloads"))
import anchors  # noqa: E402

CALLS = 10


def kernels_of(fn, inputs):
    for _ in range(4):
        fn(*inputs)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(CALLS):
            fn(*inputs)
        torch.cuda.synchronize()
    # Kernels in launch order of the first call, with the mean over all calls.
    totals = defaultdict(float)
    counts = defaultdict(int)
    order = []
    for event in prof.events():
        if event.device_type != torch.autograd.DeviceType.CUDA:
            continue
        key = event.name
        if key not in totals:
            order.append(key)
        totals[key] += event.device_time
        counts[key] += 1
    return [{"name": k, "launches_per_call": counts[k] / CALLS,
             "us_per_call": totals[k] / CALLS} for k in order]


def main():
    wanted = sys.argv[2:]
    out = {}
    for name, fn, inputs in anchors.workloads():
        if wanted and not any(w in name for w in wanted):
            continue
        rows = kernels_of(torch.compile(fn), inputs)
        out[name] = rows
        total = sum(r["us_per_call"] for r in rows)
        print(f"== {name}: {len(rows)} kernels, {total:.1f} us per call", flush=True)
        for r in rows:
            print(f"  {r['us_per_call']:9.1f} us  x{r['launches_per_call']:.0f}  {r['name'][:110]}")
    with open(sys.argv[1], "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
