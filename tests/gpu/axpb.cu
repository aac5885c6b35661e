// SPDX-License-Identifier: MIT
// The kernel kiln-gpu-check loads as a cubin (docs/gpu.md: nvcc -cubin -arch=sm_90); its PTX
// form is embedded in gpu_checks.cpp.
extern "C" __global__ void kiln_check_axpb(const float* x, float* y, float a, float b,
                                           long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b;
}
