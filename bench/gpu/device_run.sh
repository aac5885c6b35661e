#!/bin/bash
# The device check as run on the H200 (docs/gpu-codegen.md): put this script, the stripped
# kiln-gpu-codegen-check, torch_side.py and gpucg-libs.tar.xz (libdnnl, libblis, libsleef,
# libgomp, libOpenCL from the build machine, which the GPU machine lacks) in one folder that
# travels to the GPU machine, and run it there with $OUT set to where results go.
cd "$(dirname "$0")"
python3 -c "import tarfile; tarfile.open('gpucg-libs.tar.xz').extractall('.')" || exit 1
export LD_LIBRARY_PATH=$PWD/lib:/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
ldd ./kiln-gpu-codegen-check | grep -i 'not found'
timeout 300 ./kiln-gpu-codegen-check "$OUT/results.json" 2>&1 | tee "$OUT/check.log"
echo "check rc=${PIPESTATUS[0]}"
PYTHONUNBUFFERED=1 timeout 150 python3 torch_side.py "$OUT/torch.json" 2>&1 | tail -5 | tee "$OUT/torch.log"
