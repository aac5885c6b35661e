// SPDX-License-Identifier: MIT
#include "inductor/debug_trace.h"

#include "diagram/diagram_render.h"
#include "support/debug_sandbox.h"

#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <unistd.h>

namespace kiln::inductor {

namespace {

namespace fs = std::filesystem;

std::atomic<int> g_graphCounter{0};

/// run_YYYY_MM_DD_HH_MM_SS_ffffff-pid_<pid>, fixed for the process like PyTorch's.
const std::string& runFolderName() {
    static const std::string name = [] {
        auto now = std::chrono::system_clock::now();
        std::time_t t = std::chrono::system_clock::to_time_t(now);
        auto micros =
            std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() %
            1000000;
        std::tm tm{};
        localtime_r(&t, &tm);
        char text[80];
        std::snprintf(text, sizeof text, "run_%04d_%02d_%02d_%02d_%02d_%02d_%06lld-pid_%d",
                      tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                      tm.tm_sec, static_cast<long long>(micros), static_cast<int>(::getpid()));
        return std::string(text);
    }();
    return name;
}

Status writeFile(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) return Diagnostic{"DebugTraceError", "cannot write " + path.string()};
    return {};
}

/// Every line as a Python comment: output_code.py holds IR, not Python.
std::string commented(const std::string& text) {
    std::string out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        out += "# " + text.substr(start, end - start) + "\n";
        start = end + 1;
    }
    return out;
}

std::string passIr(const PipelineResult& r, const std::string& name) {
    for (const PassRecord& p : r.passes)
        if (p.name == name) return p.irAfter;
    return {};
}

} // namespace

Expected<std::string> writeDebugTrace(const DebugTraceInput& in) {
    fs::path root;
    std::optional<std::string> debugDir = in.options.text("trace.debug_dir");
    if (debugDir && !debugDir->empty()) {
        auto confined = support::confineToDebugSandbox(*debugDir, "trace.debug_dir");
        if (!confined) return confined.error();
        root = *confined;
    } else {
        std::string base = in.debugDirRoot.empty() ? support::debugSandboxRoot() : in.debugDirRoot;
        auto confined = support::confineToDebugSandbox(base, "debug_dir_root");
        if (!confined) return confined.error();
        root = fs::path(*confined) / runFolderName();
        std::error_code ec;
        fs::create_directories(root / "torchdynamo", ec);
        if (!fs::exists(root / "torchdynamo" / "debug.log"))
            std::ofstream(root / "torchdynamo" / "debug.log");
    }
    int n = g_graphCounter++;
    std::string name =
        "model__" + std::to_string(in.graphIndex) + "_inference_" + std::to_string(n);
    fs::path dir = root / "torchinductor" / (name + "." + std::to_string(n));
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        return Diagnostic{"DebugTraceError", "cannot create " + dir.string() + ": " + ec.message()};

    const OptionValues& o = in.options;
    std::vector<std::pair<std::string, std::string>> files;
    if (o.flag("trace.fx_graph")) {
        files.emplace_back("fx_graph_readable.py", in.readableGraph);
        files.emplace_back("fx_graph_runnable.py", in.reproScript);
    }
    if (o.flag("trace.fx_graph_transformed"))
        files.emplace_back("fx_graph_transformed.py", commented(passIr(in.pipeline, "decompose")));
    if (o.flag("trace.ir_pre_fusion"))
        files.emplace_back("ir_pre_fusion.txt", passIr(in.pipeline, "lower_to_loops"));
    if (o.flag("trace.ir_post_fusion"))
        files.emplace_back("ir_post_fusion.txt", passIr(in.pipeline, "fuse_kernels"));
    if (o.flag("trace.output_code"))
        files.emplace_back("output_code.py", "# Kiln output code for graph " + in.compileId + "\n" +
                                                 commented(passIr(in.pipeline, "generate_code")));
    for (const auto& [file, text] : files)
        if (auto s = writeFile(dir / file, text); !s) return s.error();
    if (o.flag("trace.graph_diagram")) {
        auto svg = diagram::renderDot(in.postFusionDot, diagram::ImageFormat::Svg);
        if (!svg) {
            // As PyTorch without graphviz: no SVG. Kiln keeps the DOT so nothing is lost.
            if (auto s = writeFile(dir / "graph_diagram.dot", in.postFusionDot); !s)
                return s.error();
            return Diagnostic{"DebugTraceError", "graph_diagram.svg not drawn (" +
                                                     svg.error().message +
                                                     "); wrote graph_diagram.dot instead"};
        }
        if (auto s = writeFile(dir / "graph_diagram.svg", *svg); !s) return s.error();
    }
    return fs::absolute(dir).string();
}

} // namespace kiln::inductor
