#!/bin/bash
# One device call's worth of GPU measurements, from the checkout root on the GPU machine:
# the H200 acceptance table (side_by_side.py: Kiln beside torch.compile 2.11 in one call),
# `kiln kernels` of the warm trace, gpu_numerics.py, then the host CPU's ResNet-18 comparison
# on one core, and real PyTorch's CUDA import fixtures (TORCH_TRACE and torch.profiler of
# tests/import/fixtures/gen_torch_traces.py, training, default mode). Results go to $OUT.
# KILN_SKIP_HOST_CPU=1 leaves out the host CPU comparison (saves about 3 minutes of device time).
#
# The bundle is built here (docs/gpu.md): the static build
#   cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DKILN_STATIC_LLVM=ON \
#         -DKILN_BUILD_TESTS=OFF -DKILN_BUILD_BENCH=OFF && ninja -C build-gpu kiln
# stripped into .device/bundle/kiln beside the shared libraries `ldd` lists that the GPU
# machine lacks (libdnnl, libblis, libsleef, libgomp, libsqlite3, libOpenCL, libz, libzstd),
# packed as .device/bundle.tar.xz (.device/ is git-ignored), then
#   run: bash bench/gpu/run_on_device.sh, carry [".device/bundle.tar.xz"], kind nvidia-h200
cd "$(dirname "$0")/../.."
tar xJf .device/bundle.tar.xz -C .device || exit 1
export LD_LIBRARY_PATH=$PWD/.device/bundle:/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib
K=$PWD/.device/bundle/kiln
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.limit \
    --format=csv,noheader | tee "$OUT/gpu.txt"
lscpu | grep -E "Model name|Flags" | cut -c1-400 >> "$OUT/gpu.txt"
ldd "$K" | grep -i 'not found'
PYTHONUNBUFFERED=1 timeout 300 python3 bench/gpu/side_by_side.py --kiln "$K" --out "$OUT/side.json" 2>&1 |
    tee "$OUT/side.log" | tail -40
W=$(python3 -c "import json; print(json.load(open('$OUT/side.json'))['kiln_traces'][1])" 2>/dev/null)
[ -n "$W" ] && "$K" kernels "$W" > "$OUT/kernels.txt" 2>&1
timeout 120 "$K" run --device cpu tests/gpu/workloads/gpu_numerics.py > "$OUT/numerics.log" 2>&1
echo "numerics rc=$? passed=$(grep -c PASS "$OUT/numerics.log")"
grep -v PASS "$OUT/numerics.log" | tail -5
# $OUT brings back at most 8 files: the fixture's log goes to the output, its trace and profile
# to $OUT/cuda-fixture.
F=$(mktemp -d)
TORCH_TRACE="$F/trace" MODE= TRAIN=1 timeout 150 python3 tests/import/fixtures/gen_torch_traces.py "$F" cuda 2>&1 | tail -5
mkdir -p "$OUT/cuda-fixture"
cp "$F"/trace/*.log "$OUT/cuda-fixture/cuda_train_default.torch_trace.log"
cp "$F"/profile_cuda_train_default.json "$OUT/cuda-fixture/cuda_train_default.profile.json"
ls -l "$OUT/cuda-fixture"
[ "$KILN_SKIP_HOST_CPU" = 1 ] && exit 0
PYTHONUNBUFFERED=1 timeout 200 taskset -c 2 python3 bench/torch_compare.py --kiln-cli "$K" \
    --workload resources/workloads/bench/resnet18.py --threads 1 --calls 10 \
    --json "$OUT/resnet.json" > "$OUT/resnet.log" 2>&1
echo "resnet rc=$?"
tail -12 "$OUT/resnet.log"
