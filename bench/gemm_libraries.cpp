// SPDX-License-Identifier: MIT
// kiln-bench-gemm: the evidence behind Kiln's choice of CPU matrix-product library.
//
// Times float32 and bfloat16 matrix products of the shapes Kiln's workloads make (linear layers,
// square products, the small ones of tests) with every candidate library installed here, each
// in its automatic code path and in the AVX2 and AVX-512 paths forced where the CPU has them:
//   OpenBLAS (libopenblas0-pthread; OPENBLAS_CORETYPE), BLIS (libblis4; BLIS_ARCH_TYPE, an id of
//   its arch_t: 0 skx, 3 haswell) and
//   oneDNN (libdnnl2; DNNL_MAX_CPU_ISA), plus oneDNN's matmul with a fused bias + GELU post-op
//   against its product followed by a separate bias + GELU pass.
// Each configuration runs in its own child process (the libraries read their code-path
// variables once, when they load), with the same thread count. Prints a table of GFLOP/s with
// each row's ratio to the fastest configuration and writes JSON with every number.
//
//   kiln-bench-gemm [--threads N] [--quick] [--json FILE]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <functional>
#include <map>
#include <oneapi/dnnl/dnnl.hpp>
#include <random>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace {

struct Shape {
    const char* name;
    int64_t m, n, k;
    bool transB; ///< B given as an N x K row-major matrix (a linear layer's weight)
};

std::vector<Shape> shapes(bool quick) {
    std::vector<Shape> s = {
        {"mlp_up 1024x4096x1024 (linear)", 1024, 4096, 1024, true},
        {"mlp_down 1024x1024x4096 (linear)", 1024, 1024, 4096, true},
        {"square 2048", 2048, 2048, 2048, false},
        {"square 512", 512, 512, 512, false},
        {"attention 1024x1024x64", 1024, 1024, 64, true},
        {"small 128x128x128", 128, 128, 128, false},
        {"tiny 32x256x64 (linear)", 32, 256, 64, true},
    };
    if (quick) s.erase(s.begin() + 2);
    return s;
}

double nowSeconds() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

/// Median seconds of fn over enough runs for ~0.3 s (at least 5), after two warm-up runs.
double medianSeconds(const std::function<void()>& fn) {
    fn();
    fn();
    std::vector<double> t;
    double start = nowSeconds();
    while (t.size() < 5 || (nowSeconds() - start < 0.3 && t.size() < 200)) {
        double a = nowSeconds();
        fn();
        t.push_back(nowSeconds() - a);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

std::vector<float> randomFloats(size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> d(0.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v)
        x = d(gen);
    return v;
}

// ---- the child: one library in one code path --------------------------------------------

enum CblasOrder { RowMajor = 101 };
enum CblasTrans { NoTrans = 111, Trans = 112 };
using CblasSgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*,
                            int, float, float*, int);
using CblasDgemm = void (*)(int, int, int, int, int, int, double, const double*, int, const double*,
                            int, double, double*, int);

struct Result {
    std::string shape, dtype, variant;
    double seconds = 0, gflops = 0;
};

void emit(const std::string& config, const std::string& isa, const Result& r) {
    std::printf("RESULT\t%s\t%s\t%s\t%s\t%s\t%.9f\t%.3f\n", config.c_str(), isa.c_str(),
                r.shape.c_str(), r.dtype.c_str(), r.variant.c_str(), r.seconds, r.gflops);
    std::fflush(stdout);
}

Result timeCblas(CblasSgemm sgemm, const Shape& s) {
    auto a = randomFloats(size_t(s.m * s.k), 1), b = randomFloats(size_t(s.k * s.n), 2);
    std::vector<float> c(size_t(s.m * s.n));
    int ldb = s.transB ? int(s.k) : int(s.n);
    double sec = medianSeconds([&] {
        sgemm(RowMajor, NoTrans, s.transB ? Trans : NoTrans, int(s.m), int(s.n), int(s.k), 1.0f,
              a.data(), int(s.k), b.data(), ldb, 0.0f, c.data(), int(s.n));
    });
    return {s.name, "float32", "gemm", sec, 2.0 * s.m * s.n * s.k / sec * 1e-9};
}

Result timeCblasDouble(CblasDgemm dgemm, const Shape& s) {
    auto af = randomFloats(size_t(s.m * s.k), 1), bf = randomFloats(size_t(s.k * s.n), 2);
    std::vector<double> a(af.begin(), af.end()), b(bf.begin(), bf.end()), c(size_t(s.m * s.n));
    int ldb = s.transB ? int(s.k) : int(s.n);
    double sec = medianSeconds([&] {
        dgemm(RowMajor, NoTrans, s.transB ? Trans : NoTrans, int(s.m), int(s.n), int(s.k), 1.0,
              a.data(), int(s.k), b.data(), ldb, 0.0, c.data(), int(s.n));
    });
    return {s.name, "float64", "gemm", sec, 2.0 * s.m * s.n * s.k / sec * 1e-9};
}

std::string cblasChild(const std::string& library, const std::string& config, bool quick,
                       int threads) {
    const char* path = library == "openblas" ? "libopenblas.so.0" : "libblis.so.4";
    void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) return std::string("cannot load ") + path + ": " + dlerror();
    auto sgemm = reinterpret_cast<CblasSgemm>(dlsym(h, "cblas_sgemm"));
    auto dgemm = reinterpret_cast<CblasDgemm>(dlsym(h, "cblas_dgemm"));
    std::string isa;
    if (library == "openblas") {
        reinterpret_cast<void (*)(int)>(dlsym(h, "openblas_set_num_threads"))(threads);
        isa = reinterpret_cast<char* (*)()>(dlsym(h, "openblas_get_corename"))();
    } else {
        reinterpret_cast<void (*)(long)>(dlsym(h, "bli_thread_set_num_threads"))(threads);
        auto id = reinterpret_cast<int (*)()>(dlsym(h, "bli_arch_query_id"))();
        isa = reinterpret_cast<const char* (*)(int)>(dlsym(h, "bli_arch_string"))(id);
    }
    for (const Shape& s : shapes(quick)) {
        emit(config, isa, timeCblas(sgemm, s));
        emit(config, isa, timeCblasDouble(dgemm, s));
    }
    return {};
}

std::string dnnlIsaName(dnnl::cpu_isa isa) {
    switch (isa) {
    case dnnl::cpu_isa::avx2:
        return "avx2";
    case dnnl::cpu_isa::avx2_vnni:
        return "avx2_vnni";
    case dnnl::cpu_isa::avx512_core:
        return "avx512_core";
    case dnnl::cpu_isa::avx512_core_vnni:
        return "avx512_core_vnni";
    case dnnl::cpu_isa::avx512_core_bf16:
        return "avx512_core_bf16";
    case dnnl::cpu_isa::avx512_core_amx:
        return "avx512_core_amx";
    default:
        return "isa " + std::to_string(int(isa));
    }
}

/// oneDNN's matmul primitive C = A x B (+ bias, GELU) in float32 or bf16 (accumulating and
/// storing in float32 for bf16 inputs, as PyTorch's bf16 linear accumulates). With avoidAmx,
/// the first implementation oneDNN offers that does not use AMX (where it offers one first).
Result timeDnnlMatmul(const Shape& s, dnnl::memory::data_type in, bool biasGelu,
                      bool avoidAmx = false) {
    using namespace dnnl;
    using dt = memory::data_type;
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    memory::desc aMd({s.m, s.k}, in, memory::format_tag::ab);
    memory::desc bMd({s.k, s.n}, in, s.transB ? memory::format_tag::ba : memory::format_tag::ab);
    memory::desc biasMd({1, s.n}, dt::f32, memory::format_tag::ab);
    memory::desc cMd({s.m, s.n}, dt::f32, memory::format_tag::ab);
    primitive_attr attr;
    if (biasGelu) {
        post_ops po;
        po.append_eltwise(1.0f, algorithm::eltwise_gelu_erf, 0.0f, 0.0f);
        attr.set_post_ops(po);
    }
    auto pd = biasGelu ? matmul::primitive_desc(matmul::desc(aMd, bMd, biasMd, cMd), attr, eng)
                       : matmul::primitive_desc(matmul::desc(aMd, bMd, cMd), attr, eng);
    if (avoidAmx)
        while (std::string(pd.impl_info_str()).find("amx") != std::string::npos && pd.next_impl()) {
        }
    const std::string impl = pd.impl_info_str();
    matmul prim(pd);
    memory a(aMd, eng), b(bMd, eng), bias(biasMd, eng), c(cMd, eng);
    size_t inBytes = in == dt::bf16 ? 2 : 4;
    std::memset(a.get_data_handle(), 0x3c, size_t(s.m * s.k) * inBytes);
    std::memset(b.get_data_handle(), 0x3c, size_t(s.k * s.n) * inBytes);
    std::memset(bias.get_data_handle(), 0, size_t(s.n) * 4);
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c}};
    if (biasGelu) args[DNNL_ARG_BIAS] = bias;
    double sec = medianSeconds([&] {
        prim.execute(strm, args);
        strm.wait();
    });
    return {s.name, in == dt::bf16 ? "bfloat16" : "float32",
            std::string(biasGelu ? "matmul+bias+gelu fused" : "matmul") + " [" + impl + "]", sec,
            2.0 * s.m * s.n * s.k / sec * 1e-9};
}

/// The unfused alternative: the product, then one pass adding the bias and applying GELU.
Result timeDnnlSgemmThenGelu(const Shape& s) {
    auto a = randomFloats(size_t(s.m * s.k), 1), b = randomFloats(size_t(s.k * s.n), 2);
    auto bias = randomFloats(size_t(s.n), 3);
    std::vector<float> c(size_t(s.m * s.n));
    double sec = medianSeconds([&] {
        dnnl_sgemm('N', s.transB ? 'T' : 'N', s.m, s.n, s.k, 1.0f, a.data(), s.k, b.data(),
                   s.transB ? s.k : s.n, 0.0f, c.data(), s.n);
        for (int64_t i = 0; i < s.m; ++i)
            for (int64_t j = 0; j < s.n; ++j) {
                float& v = c[size_t(i * s.n + j)];
                float x = v + bias[size_t(j)];
                v = 0.5f * x * (1.0f + std::erf(x * float(M_SQRT1_2)));
            }
    });
    return {s.name, "float32", "sgemm then bias+gelu pass", sec,
            2.0 * s.m * s.n * s.k / sec * 1e-9};
}

std::string dnnlChild(const std::string& config, bool quick, bool bf16Capable) {
    std::string isa = dnnlIsaName(dnnl::get_effective_cpu_isa());
    for (const Shape& s : shapes(quick)) {
        auto a = randomFloats(size_t(s.m * s.k), 1), b = randomFloats(size_t(s.k * s.n), 2);
        std::vector<float> c(size_t(s.m * s.n));
        double sec = medianSeconds([&] {
            dnnl_sgemm('N', s.transB ? 'T' : 'N', s.m, s.n, s.k, 1.0f, a.data(), s.k, b.data(),
                       s.transB ? s.k : s.n, 0.0f, c.data(), s.n);
        });
        emit(config, isa, {s.name, "float32", "gemm", sec, 2.0 * s.m * s.n * s.k / sec * 1e-9});
        emit(config, isa, timeDnnlMatmul(s, dnnl::memory::data_type::f32, false));
        if (isa == "avx512_core_amx")
            emit(config, isa, timeDnnlMatmul(s, dnnl::memory::data_type::f32, false, true));
        if (s.transB) {
            emit(config, isa, timeDnnlMatmul(s, dnnl::memory::data_type::f32, true));
            emit(config, isa, timeDnnlSgemmThenGelu(s));
        }
        if (!bf16Capable) continue;
        try { // bf16 matmul needs AVX-512 (emulated) or native bf16 instructions
            emit(config, isa, timeDnnlMatmul(s, dnnl::memory::data_type::bf16, false));
        } catch (const dnnl::error&) {
            bf16Capable = false;
            std::printf("bf16 matmul is not implemented for this code path\n");
        }
    }
    return {};
}

// ---- the parent: one child per configuration, then the table ----------------------------

struct Config {
    std::string name, library, envName, envValue;
};

std::vector<Config> configs() {
    __builtin_cpu_init();
    bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                  __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    std::vector<Config> c = {{"openblas auto", "openblas", "", ""},
                             {"blis auto", "blis", "", ""},
                             {"onednn auto", "onednn", "", ""}};
    if (avx2) {
        c.push_back({"openblas Haswell (AVX2)", "openblas", "OPENBLAS_CORETYPE", "Haswell"});
        c.push_back({"blis haswell (AVX2)", "blis", "BLIS_ARCH_TYPE", "3"});
        c.push_back({"onednn AVX2", "onednn", "DNNL_MAX_CPU_ISA", "AVX2"});
    }
    if (avx512) {
        c.push_back({"openblas SkylakeX (AVX-512)", "openblas", "OPENBLAS_CORETYPE", "SkylakeX"});
        c.push_back({"blis skx (AVX-512)", "blis", "BLIS_ARCH_TYPE", "0"});
        c.push_back({"onednn AVX512_CORE", "onednn", "DNNL_MAX_CPU_ISA", "AVX512_CORE"});
    }
    return c;
}

struct Row {
    std::string config, isa, shape, dtype, variant;
    double seconds, gflops;
};

std::vector<Row> runChild(const std::string& self, const Config& c, bool quick, int threads,
                          std::string& problem) {
    int fds[2];
    if (pipe(fds) != 0) return {};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e)
        env.emplace_back(*e);
    std::string t = std::to_string(threads);
    env.push_back("OMP_NUM_THREADS=" + t);
    env.push_back("OPENBLAS_NUM_THREADS=" + t);
    env.push_back("BLIS_NUM_THREADS=" + t);
    if (!c.envName.empty()) env.push_back(c.envName + "=" + c.envValue);
    std::vector<char*> envp;
    for (std::string& e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    std::vector<std::string> args = {self, "--child", c.library, c.name, t};
    if (quick) args.push_back("--quick");
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, self.c_str(), &fa, nullptr, argv.data(), envp.data());
    close(fds[1]);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        close(fds[0]);
        problem = "cannot start the child";
        return {};
    }
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
        out.append(buf, size_t(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        problem = "child failed (status " + std::to_string(status) + ")";
    std::vector<Row> rows;
    size_t pos = 0;
    while (pos < out.size()) {
        size_t end = out.find('\n', pos);
        std::string line =
            out.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        pos = end == std::string::npos ? out.size() : end + 1;
        if (line.rfind("RESULT\t", 0) != 0) {
            if (!line.empty()) problem += (problem.empty() ? "" : "; ") + line;
            continue;
        }
        std::vector<std::string> f;
        size_t p = 7;
        while (true) {
            size_t q = line.find('\t', p);
            f.push_back(line.substr(p, q == std::string::npos ? std::string::npos : q - p));
            if (q == std::string::npos) break;
            p = q + 1;
        }
        if (f.size() == 7)
            rows.push_back(
                {f[0], f[1], f[2], f[3], f[4], std::atof(f[5].c_str()), std::atof(f[6].c_str())});
    }
    return rows;
}

std::string jsonEscaped(const std::string& s) {
    std::string o;
    for (char ch : s)
        o += ch == '"' || ch == '\\' ? std::string("\\") + ch : std::string(1, ch);
    return o;
}

int parent(const std::string& self, bool quick, int threads, const std::string& jsonPath) {
    std::vector<Row> all;
    std::vector<std::pair<std::string, std::string>> problems;
    for (const Config& c : configs()) {
        std::fprintf(stderr, "measuring %s ...\n", c.name.c_str());
        std::string problem;
        auto rows = runChild(self, c, quick, threads, problem);
        if (!problem.empty()) problems.emplace_back(c.name, problem);
        all.insert(all.end(), rows.begin(), rows.end());
    }
    std::map<std::string, double> best; // shape|dtype -> fastest GFLOP/s of plain products
    for (const Row& r : all)
        if (r.variant == "gemm" || r.variant.rfind("matmul [", 0) == 0)
            best[r.shape + "|" + r.dtype] = std::max(best[r.shape + "|" + r.dtype], r.gflops);
    std::printf("%-34s %-9s %-28s %-30s %-18s %10s %9s %8s\n", "shape", "dtype", "configuration",
                "variant", "code path", "ms", "GFLOP/s", "vs best");
    std::string lastShape;
    for (const Shape& s : shapes(quick))
        for (const char* dtype : {"float32", "bfloat16", "float64"})
            for (const Row& r : all) {
                if (r.shape != s.name || r.dtype != dtype) continue;
                double b = best[r.shape + "|" + r.dtype];
                std::printf("%-34s %-9s %-28s %-30s %-18s %10.3f %9.1f %7.2fx\n", r.shape.c_str(),
                            r.dtype.c_str(), r.config.c_str(), r.variant.c_str(), r.isa.c_str(),
                            r.seconds * 1e3, r.gflops, b > 0 ? r.gflops / b : 0.0);
            }
    for (const auto& [config, problem] : problems)
        std::printf("note: %s: %s\n", config.c_str(), problem.c_str());
    if (!jsonPath.empty()) {
        FILE* f = std::fopen(jsonPath.c_str(), "w");
        if (!f) {
            std::fprintf(stderr, "cannot write %s\n", jsonPath.c_str());
            return 1;
        }
        std::fprintf(f, "{\"threads\": %d, \"rows\": [\n", threads);
        for (size_t i = 0; i < all.size(); ++i) {
            const Row& r = all[i];
            std::fprintf(
                f,
                "  {\"configuration\": \"%s\", \"code_path\": \"%s\", \"shape\": \"%s\", "
                "\"dtype\": \"%s\", \"variant\": \"%s\", \"ms\": %.6f, \"gflops\": %.3f}%s\n",
                jsonEscaped(r.config).c_str(), jsonEscaped(r.isa).c_str(),
                jsonEscaped(r.shape).c_str(), r.dtype.c_str(), r.variant.c_str(), r.seconds * 1e3,
                r.gflops, i + 1 < all.size() ? "," : "");
        }
        std::fprintf(f, "]}\n");
        std::fclose(f);
        std::printf("results written to %s\n", jsonPath.c_str());
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc >= 5 && std::strcmp(argv[1], "--child") == 0) {
        std::string library = argv[2], config = argv[3];
        int threads = std::atoi(argv[4]);
        bool quick = argc >= 6 && std::strcmp(argv[5], "--quick") == 0;
        __builtin_cpu_init();
        bool bf16 = __builtin_cpu_supports("avx512f"); // oneDNN emulates bf16 on AVX-512 cores
        std::string problem = library == "onednn" ? dnnlChild(config, quick, bf16)
                                                  : cblasChild(library, config, quick, threads);
        if (!problem.empty()) std::printf("%s\n", problem.c_str());
        return problem.empty() ? 0 : 1;
    }
    bool quick = false;
    int threads = 2;
    std::string json = "gemm-libraries.json";
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--quick")
            quick = true;
        else if (a == "--threads" && i + 1 < argc)
            threads = std::atoi(argv[++i]);
        else if (a == "--json" && i + 1 < argc)
            json = argv[++i];
        else {
            std::fprintf(stderr, "usage: kiln-bench-gemm [--threads N] [--quick] [--json FILE]\n");
            return 2;
        }
    }
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return 1;
    self[n] = 0;
    return parent(self, quick, threads, json);
}
