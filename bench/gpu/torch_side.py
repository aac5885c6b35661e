# SPDX-License-Identifier: MIT
# Real torch.compile (Inductor, default mode) on the device check's timed shapes, in the same
# call as kiln-gpu-codegen-check so both sides see the same card: median CUDA-event time of
# 100 calls after warm-up (one kernel per call for these three workloads).
import json
import sys

import torch
import torch.nn.functional as F


def median_us(fn, x, reps=100):
    for _ in range(5):
        fn(x)
    torch.cuda.synchronize()
    # Events around each call without a synchronize in between, as the Kiln side times its
    # launches: the queue stays full, so host overhead does not land inside the window.
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
              for _ in range(reps)]
    for start, stop in events:
        start.record()
        fn(x)
        stop.record()
    torch.cuda.synchronize()
    times = [start.elapsed_time(stop) * 1000.0 for start, stop in events]
    times.sort()
    return times[len(times) // 2]


def main():
    torch.manual_seed(0)
    w = torch.randn(4096, device="cuda")
    b = torch.randn(4096, device="cuda")
    cases = {
        "sin+cos 2^26": (lambda x: torch.sin(x) + torch.cos(x), torch.randn(1 << 26, device="cuda")),
        "gelu(layer_norm) 16384x4096": (
            lambda x: F.gelu(F.layer_norm(x, (4096,), w, b)),
            torch.randn(16384, 4096, device="cuda"),
        ),
        "softmax 16384x4096": (lambda x: torch.softmax(x, -1), torch.randn(16384, 4096, device="cuda")),
    }
    out = {}
    for name, (fn, x) in cases.items():
        compiled = torch.compile(fn)
        out[name] = {"inductor_default_us": median_us(compiled, x), "eager_us": median_us(fn, x)}
        print(f"torch {name:32s} inductor {out[name]['inductor_default_us']:8.1f} us   "
              f"eager {out[name]['eager_us']:8.1f} us", flush=True)
    with open(sys.argv[1] if len(sys.argv) > 1 else "torch.json", "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
