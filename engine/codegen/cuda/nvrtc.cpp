// SPDX-License-Identifier: MIT
#include "codegen/cuda/nvrtc.h"

#include <chrono>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <nvrtc.h>
#include <sstream>

namespace kiln::codegen::cuda {

namespace {

// The functions Kiln calls; the X-macro keeps each pointer typed by nvrtc.h's declaration.
#define KILN_NVRTC_FUNCS(X)                                                                        \
    X(nvrtcVersion)                                                                                \
    X(nvrtcGetErrorString)                                                                         \
    X(nvrtcCreateProgram)                                                                          \
    X(nvrtcCompileProgram)                                                                         \
    X(nvrtcGetProgramLogSize)                                                                      \
    X(nvrtcGetProgramLog)                                                                          \
    X(nvrtcGetCUBINSize)                                                                           \
    X(nvrtcGetCUBIN)                                                                               \
    X(nvrtcGetPTXSize)                                                                             \
    X(nvrtcGetPTX)                                                                                 \
    X(nvrtcDestroyProgram)

struct Library {
#define KILN_DECLARE(f) decltype(&::f) f = nullptr;
    KILN_NVRTC_FUNCS(KILN_DECLARE)
#undef KILN_DECLARE
    std::string error; ///< why it cannot be used; empty when loaded
    std::string version;
};

const Library& library() {
    static Library lib;
    static std::once_flag once;
    std::call_once(once, [] {
        void* handle = dlopen("libnvrtc.so.13", RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* why = dlerror();
            lib.error = std::string("NVRTC unavailable: dlopen(libnvrtc.so.13) failed: ") +
                        (why ? why : "unknown error");
            return;
        }
#define KILN_LOAD(f)                                                                               \
    lib.f = reinterpret_cast<decltype(lib.f)>(dlsym(handle, #f));                                  \
    if (!lib.f && lib.error.empty()) lib.error = "NVRTC unavailable: libnvrtc.so.13 lacks " #f;
        KILN_NVRTC_FUNCS(KILN_LOAD)
#undef KILN_LOAD
        if (!lib.error.empty()) return;
        int major = 0, minor = 0;
        if (lib.nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) {
            lib.error = "NVRTC unavailable: nvrtcVersion failed";
            return;
        }
        lib.version = std::to_string(major) + "." + std::to_string(minor);
    });
    return lib;
}

std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

std::string programLog(const Library& lib, nvrtcProgram program) {
    size_t size = 0;
    if (lib.nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size <= 1) return {};
    std::string log(size, '\0');
    if (lib.nvrtcGetProgramLog(program, log.data()) != NVRTC_SUCCESS) return {};
    log.resize(size - 1); // the size counts the terminating NUL
    return log;
}

Diagnostic compileError(const std::string& name, const NvrtcOptions& options,
                        const std::string& log, const char* nvrtcError) {
    std::vector<std::string> lines = splitLines(log);
    std::string first = nvrtcError;
    for (const std::string& line : lines)
        if (line.find("error") != std::string::npos) {
            first = line;
            break;
        }
    Diagnostic d = makeDiagnostic("CudaCompileError",
                                  "NVRTC could not compile " + name + " for " +
                                      (options.ptx ? "compute_" : "sm_") +
                                      std::to_string(options.computeCapability) + ": " + first);
    d.notes = std::move(lines);
    return d;
}

} // namespace

std::string fastCompileLevelFromEnvironment() {
    static const std::string level = [] {
        const char* env = std::getenv("KILN_NVRTC_FAST_COMPILE");
        if (!env) return std::string(kDefaultFastCompileLevel);
        std::string value = env;
        if (value.empty() || value == "0") return std::string();
        if (value == "min" || value == "mid" || value == "max") return value;
        return std::string(kDefaultFastCompileLevel);
    }();
    return level;
}

std::vector<std::string> NvrtcOptions::flags() const {
    std::vector<std::string> f;
    f.push_back(std::string("--gpu-architecture=") + (ptx ? "compute_" : "sm_") +
                std::to_string(computeCapability));
    f.push_back("--std=c++17");
    // Kernels compute in IEEE float: no fast math, but FMA contraction as nvcc's default.
    f.push_back("--fmad=true");
    if (lineInfo) f.push_back("-lineinfo");
    if (!fastCompile.empty()) f.push_back("--Ofast-compile=" + fastCompile);
    f.insert(f.end(), extra.begin(), extra.end());
    return f;
}

Expected<std::string> nvrtcVersion() {
    const Library& lib = library();
    if (!lib.error.empty()) return makeDiagnostic("CudaUnavailable", lib.error);
    return lib.version;
}

Expected<CompiledImage> compileWithNvrtc(const std::string& source, const std::string& name,
                                         const NvrtcOptions& options) {
    const Library& lib = library();
    if (!lib.error.empty()) return makeDiagnostic("CudaUnavailable", lib.error);
    auto t0 = std::chrono::steady_clock::now();
    nvrtcProgram program = nullptr;
    nvrtcResult r = lib.nvrtcCreateProgram(&program, source.c_str(), (name + ".cu").c_str(), 0,
                                           nullptr, nullptr);
    if (r != NVRTC_SUCCESS)
        return makeDiagnostic("CudaCompileError", "nvrtcCreateProgram failed for " + name + ": " +
                                                      lib.nvrtcGetErrorString(r));
    std::vector<std::string> flags = options.flags();
    std::vector<const char*> argv;
    for (const std::string& f : flags)
        argv.push_back(f.c_str());
    r = lib.nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());
    CompiledImage out;
    out.ptx = options.ptx;
    out.log = programLog(lib, program);
    if (r != NVRTC_SUCCESS) {
        Diagnostic d = compileError(name, options, out.log, lib.nvrtcGetErrorString(r));
        lib.nvrtcDestroyProgram(&program);
        return d;
    }
    size_t size = 0;
    r = options.ptx ? lib.nvrtcGetPTXSize(program, &size) : lib.nvrtcGetCUBINSize(program, &size);
    if (r == NVRTC_SUCCESS) {
        out.image.resize(size);
        r = options.ptx ? lib.nvrtcGetPTX(program, out.image.data())
                        : lib.nvrtcGetCUBIN(program, out.image.data());
    }
    lib.nvrtcDestroyProgram(&program);
    if (r != NVRTC_SUCCESS)
        return makeDiagnostic("CudaCompileError",
                              "NVRTC compiled " + name +
                                  " but gave no image: " + lib.nvrtcGetErrorString(r));
    if (out.ptx && !out.image.empty() && out.image.back() == '\0') out.image.pop_back();
    out.compileMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

} // namespace kiln::codegen::cuda
