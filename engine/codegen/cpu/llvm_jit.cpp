// SPDX-License-Identifier: MIT
// The JIT driver: one LLJIT for the process; per kernel, emit IR, look it up in the in-memory
// and on-disk caches, else optimize (O3, host CPU) and compile it to an object file, which is
// both cached and linked into the JIT.
#include "codegen/cpu/cpu_codegen.h"
#include "codegen/cpu/kernel_emitter.h"
#include "support/cache_file.h"
#include "support/sha256.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>
#include <map>
#include <mutex>

namespace kiln::codegen {

namespace {

namespace fs = std::filesystem;

/// Bumped whenever the emitted code changes meaning, so stale disk entries are never used.
constexpr const char* kEmitterVersion = "kiln-cpu-kernels-12";

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string errorText(llvm::Error e) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << e;
    return os.str();
}

class Jit {
public:
    static Jit& instance() {
        static Jit jit;
        return jit;
    }

    std::mutex mutex;
    std::string initError;
    EmitTarget target;
    std::string cpu, features;
    std::map<std::string, CompiledKernel> memory;
    bool cacheEnabled = true;

    Expected<CompiledKernel> compile(const compiler::LoopProgram& p,
                                     const compiler::ScheduledKernel& k, const LoopTuning& tuning,
                                     CodegenStats* stats);

private:
    Jit();
    llvm::Error defineMathAliases();
    Expected<KernelEntry> link(std::unique_ptr<llvm::MemoryBuffer> object,
                               const std::string& symbol);
    std::unique_ptr<llvm::MemoryBuffer> readCached(const std::string& symbol,
                                                   const std::string& key);
    void writeCached(const std::string& symbol, const std::string& key, llvm::StringRef bytes);

    std::unique_ptr<llvm::orc::LLJIT> m_jit;
    std::unique_ptr<llvm::TargetMachine> m_tm;
    std::string m_cacheDir;
    int m_uncachedCount = 0;
};

Jit::Jit() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    std::string err;
    target.vectorMath = !llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1", &err);
    auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!jtmb) {
        initError = "LLVM cannot describe this CPU: " + errorText(jtmb.takeError());
        return;
    }
    jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    cpu = jtmb->getCPU();
    features = jtmb->getFeatures().getString();
    target.avx512 = features.find("+avx512f") != std::string::npos;
    auto tm = jtmb->createTargetMachine();
    if (!tm) {
        initError = "LLVM cannot target this CPU: " + errorText(tm.takeError());
        return;
    }
    m_tm = std::move(*tm);
    auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
    if (!jit) {
        initError = "the LLVM JIT did not start: " + errorText(jit.takeError());
        return;
    }
    m_jit = std::move(*jit);
    auto gen = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
        m_jit->getDataLayout().getGlobalPrefix());
    if (gen) m_jit->getMainJITDylib().addGenerator(std::move(*gen));
    if (auto e = defineMathAliases())
        initError = "the LLVM JIT cannot see libm: " + errorText(std::move(e));
    m_cacheDir = kernelCacheDirectory();
}

/// kiln_sinf -> libm's sinf, and so on for every function the emitter calls by an alias.
llvm::Error Jit::defineMathAliases() {
    llvm::orc::SymbolMap symbols;
    for (const char* base : {"exp", "log", "sin", "cos", "tan", "tanh", "erf", "log1p"})
        for (const char* suffix : {"", "f"}) {
            std::string name = std::string(base) + suffix;
            void* address = llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(name);
            if (!address) continue;
            symbols[m_jit->mangleAndIntern("kiln_" + name)] = {
                llvm::orc::ExecutorAddr::fromPtr(address), llvm::JITSymbolFlags::Exported};
        }
    return m_jit->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(symbols)));
}

/// The entry format (magic line, key hash, payload hash, object) is support/cache_file.h's,
/// shared with the CUDA kernel cache; "kiln-kernel 1" names the CPU's object payload.
constexpr const char* kCacheMagic = "kiln-kernel 1\n";

fs::path cachePath(const std::string& dir, const std::string& symbol) {
    return fs::path(dir) / (symbol + ".kobj");
}

std::unique_ptr<llvm::MemoryBuffer> Jit::readCached(const std::string& symbol,
                                                    const std::string& key) {
    if (m_cacheDir.empty()) return nullptr;
    fs::path path = cachePath(m_cacheDir, symbol);
    std::optional<std::string> payload = readCacheEntry(path.string(), kCacheMagic, key);
    if (!payload) return nullptr;
    // Whole and ours; still, only an object file that defines the kernel reaches the linker.
    llvm::StringRef objectBytes(*payload);
    auto object =
        llvm::object::ObjectFile::createObjectFile(llvm::MemoryBufferRef(objectBytes, symbol));
    bool ok = false;
    if (object) {
        for (const auto& sym : (*object)->symbols()) {
            auto name = sym.getName();
            if (name && *name == symbol) ok = true;
            if (!name) llvm::consumeError(name.takeError());
        }
    } else {
        llvm::consumeError(object.takeError());
    }
    if (!ok) {
        std::error_code ec;
        fs::remove(path, ec);
        return nullptr;
    }
    return llvm::MemoryBuffer::getMemBufferCopy(objectBytes, symbol);
}

void Jit::writeCached(const std::string& symbol, const std::string& key, llvm::StringRef bytes) {
    if (m_cacheDir.empty()) return;
    writeCacheEntry(cachePath(m_cacheDir, symbol).string(), kCacheMagic, key,
                    std::string_view(bytes.data(), bytes.size()));
}

Expected<KernelEntry> Jit::link(std::unique_ptr<llvm::MemoryBuffer> object,
                                const std::string& symbol) {
    if (auto e = m_jit->addObjectFile(std::move(object)))
        return Diagnostic{"JITError",
                          "cannot link kernel " + symbol + ": " + errorText(std::move(e))};
    auto address = m_jit->lookup(symbol);
    if (!address)
        return Diagnostic{"JITError",
                          "cannot find kernel " + symbol + ": " + errorText(address.takeError())};
    return address->toPtr<KernelEntry>();
}

std::string describeForHash(const compiler::LoopProgram& p, const compiler::ScheduledKernel& k,
                            const LoopTuning& tuning) {
    std::string text = toString(compiler::Schedule{{k}}, p);
    for (const compiler::Buffer& b : p.buffers)
        text += b.name + ":" + std::string(tensor::dtypeName(b.dtype)) + ";";
    text += "syms=" + std::to_string(p.symbolNames.size());
    if (k.kind == compiler::ScheduledKernel::Kind::Template) {
        // The template's code depends on how it reads its operands and on its tile.
        text += ";tile=" + std::to_string(k.tileM) + "x" + std::to_string(k.tileN);
        const compiler::LoopNode& mm = p.nodes.at(static_cast<size_t>(k.stages.at(0).node));
        text += ";alpha=" + std::to_string(mm.alpha) + ";beta=" + std::to_string(mm.beta);
        for (const compiler::BufferView& v : mm.operands) {
            text += ";view" + std::to_string(v.buffer) + "@" + compiler::toString(v.offset);
            for (size_t d = 0; d < v.sizes.size(); ++d)
                text +=
                    "," + compiler::toString(v.sizes[d]) + ":" + compiler::toString(v.strides[d]);
        }
    }
    text +=
        ";vw=" + std::to_string(tuning.vectorWidth) + ";il=" + std::to_string(tuning.interleave);
    return text;
}

Expected<CompiledKernel> Jit::compile(const compiler::LoopProgram& p,
                                      const compiler::ScheduledKernel& k, const LoopTuning& tuning,
                                      CodegenStats* stats) {
    if (!initError.empty()) return Diagnostic{"JITError", initError};
    std::string key = describeForHash(p, k, tuning) + ";" + kEmitterVersion + ";" + cpu + ";" +
                      features + ";" + LLVM_VERSION_STRING + (target.vectorMath ? ";mvec" : "");
    if (auto hit = memory.find(key); cacheEnabled && hit != memory.end()) {
        if (stats) ++stats->memoryCacheHits;
        CompiledKernel c = hit->second;
        c.fromCache = true;
        return c;
    }
    // With the caches off, a fresh symbol per compile keeps the JIT's names unique.
    std::string symbol = "kiln_k_" + sha256Hex(key).substr(0, 24) +
                         (cacheEnabled ? "" : "_" + std::to_string(++m_uncachedCount));
    auto t0 = std::chrono::steady_clock::now();
    auto ctx = std::make_unique<llvm::LLVMContext>();
    auto module = std::make_unique<llvm::Module>(symbol, *ctx);
    module->setDataLayout(m_jit->getDataLayout());
    module->setTargetTriple(m_tm->getTargetTriple().str());
    CompiledKernel result;
    result.bufferParams = k.kind == compiler::ScheduledKernel::Kind::Template
                              ? emitTemplate(*module, symbol, p, k, target)
                              : emitKernel(*module, symbol, p, k, tuning, target);
    std::string verifyErrors;
    llvm::raw_string_ostream vs(verifyErrors);
    if (llvm::verifyModule(*module, &vs))
        return Diagnostic{"JITError", "generated invalid LLVM IR for " + k.name + ": " + vs.str()};
    if (stats) stats->irBuildMs += msSince(t0);
    if (const char* dump = std::getenv("KILN_DUMP_KERNEL_IR"); dump && *dump) {
        std::error_code ec;
        llvm::raw_fd_ostream out(std::string(dump) + "/" + symbol + ".ll", ec);
        if (!ec) out << *module;
    }

    if (auto cached = cacheEnabled ? readCached(symbol, key) : nullptr) {
        llvm::raw_string_ostream os(result.llvmIR);
        os << "; loaded from the kernel cache (IR before optimization)\n" << *module;
        auto entry = link(std::move(cached), symbol);
        if (entry) {
            if (stats) ++stats->diskCacheHits;
            result.entry = *entry;
            result.fromCache = true;
            memory[key] = result;
            return result;
        }
    }

    t0 = std::chrono::steady_clock::now();
    for (llvm::Function& f : *module)
        if (!f.isDeclaration()) {
            f.addFnAttr("target-cpu", cpu);
            f.addFnAttr("target-features", features);
            // LLVM's tuning for Skylake-SP and later Xeons prefers 256-bit vectors (and the
            // AVX2 libmvec variants) for fear of frequency drops; measured on a Sapphire Rapids
            // and a Zen 4, the 512-bit loops are faster for every kernel Kiln generates.
            if (target.avx512) f.addFnAttr("prefer-vector-width", "512");
        }
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PipelineTuningOptions pto;
    pto.LoopVectorization = true;
    pto.SLPVectorization = true;
    llvm::PassBuilder pb(m_tm.get(), pto);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(*module, mam);
    if (stats) stats->optimizeMs += msSince(t0);
    {
        llvm::raw_string_ostream os(result.llvmIR);
        os << *module;
    }

    t0 = std::chrono::steady_clock::now();
    llvm::SmallVector<char, 0> objectBytes;
    {
        llvm::raw_svector_ostream os(objectBytes);
        llvm::legacy::PassManager pm;
        if (m_tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile))
            return Diagnostic{"JITError", "LLVM cannot emit machine code for this CPU"};
        pm.run(*module);
    }
    llvm::StringRef bytes(objectBytes.data(), objectBytes.size());
    if (cacheEnabled) writeCached(symbol, key, bytes);
    auto entry = link(llvm::MemoryBuffer::getMemBufferCopy(bytes, symbol), symbol);
    if (!entry) return entry.error();
    if (stats) stats->machineCodeMs += msSince(t0);
    result.entry = *entry;
    memory[key] = result;
    return result;
}

} // namespace

Expected<std::vector<CompiledKernel>> compileKernels(const compiler::LoopProgram& program,
                                                     const compiler::Schedule& schedule,
                                                     const std::vector<size_t>& kernelIndices,
                                                     const std::vector<LoopTuning>& tuning,
                                                     CodegenStats* stats) {
    Jit& jit = Jit::instance();
    std::lock_guard lock(jit.mutex);
    std::vector<CompiledKernel> out;
    for (size_t i = 0; i < kernelIndices.size(); ++i) {
        LoopTuning t = i < tuning.size() ? tuning[i] : LoopTuning{};
        auto k = jit.compile(program, schedule.kernels.at(kernelIndices[i]), t, stats);
        if (!k) return k.error();
        out.push_back(std::move(*k));
    }
    return out;
}

void setKernelCacheEnabled(bool enabled) {
    Jit& jit = Jit::instance();
    std::lock_guard lock(jit.mutex);
    jit.cacheEnabled = enabled;
}

std::string kernelIdentity(const compiler::LoopProgram& program,
                           const compiler::ScheduledKernel& kernel) {
    Jit& jit = Jit::instance();
    return describeForHash(program, kernel, {}) + ";" + kEmitterVersion + ";" + jit.cpu + ";" +
           jit.features + ";" + LLVM_VERSION_STRING + (jit.target.vectorMath ? ";mvec" : "");
}

std::string hostCpuName() {
    return Jit::instance().cpu;
}

bool vectorMathAvailable() {
    return Jit::instance().target.vectorMath;
}

std::string kernelCacheDirectory() {
    return kiln::kernelCacheDirectory();
}

} // namespace kiln::codegen
