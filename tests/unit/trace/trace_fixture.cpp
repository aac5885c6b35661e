// SPDX-License-Identifier: MIT
#include "trace_fixture.h"

#include "support/clock.h"

#include <chrono>
#include <fstream>
#include <iterator>
#include <sqlite3.h>
#include <thread>

namespace kiln::testing {

std::unique_ptr<trace::TraceWriter> openWriter(const std::string& path) {
    auto writer = trace::TraceWriter::open(path);
    KILN_ASSERT(writer.ok(), "test fixture: cannot open writer");
    return std::move(writer).value();
}

std::unique_ptr<trace::TraceReader> openReader(const std::string& path) {
    auto reader = trace::TraceReader::open(path);
    KILN_ASSERT(reader.ok(), "test fixture: cannot open reader");
    return std::move(reader).value();
}

bool eventually(const std::function<bool()>& done) {
    int64_t deadline = monotonicNs() + 5'000'000'000;
    while (!done()) {
        if (monotonicNs() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return true;
}

std::string readFileBytes(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

void writeFileBytes(const std::string& path, const std::string& bytes) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << bytes;
}

std::string execSql(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    char* message = nullptr;
    std::string error;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK)
        error = message ? message : "failed";
    sqlite3_free(message);
    sqlite3_close(db);
    return error;
}

std::vector<std::string> queryTexts(const std::string& path, const std::string& sql) {
    std::vector<std::string> texts;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK) {
            while (sqlite3_step(stmt) == SQLITE_ROW) {
                const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
                texts.push_back(text ? text : "<null>");
            }
        }
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return texts;
}

int64_t queryInt(const std::string& path, const std::string& sql) {
    std::vector<std::string> texts = queryTexts(path, sql);
    if (texts.empty() || texts.front() == "<null>") return -1;
    return std::stoll(texts.front());
}

trace::RunInfo sampleRunInfo(const std::string& workloadPath) {
    trace::RunInfo info;
    info.workloadPath = workloadPath;
    info.workloadHash = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    info.mode = "max-autotune";
    info.backend = "inductor";
    info.optionsJson = R"({"trace.graph_diagram": true})";
    info.device = "cpu";
    info.argv = {"kiln", "run", workloadPath, "--mode=max-autotune"};
    return info;
}

FrameEvent sampleFrame(int64_t frameId) {
    FrameEvent frame;
    frame.frameId = frameId;
    frame.function = "fn";
    frame.file = "/w/model.py";
    frame.line = 4;
    frame.kind = "function";
    return frame;
}

CompileEvent sampleCompileStart(int64_t frameId, int32_t index, int64_t startNs) {
    CompileEvent compile;
    compile.compileId = std::to_string(frameId) + "/" + std::to_string(index);
    compile.frameId = frameId;
    compile.compileIndex = index;
    compile.reason = index == 0 ? "first" : "recompile";
    compile.startNs = startNs;
    compile.backend = "inductor";
    compile.mode = "max-autotune";
    return compile;
}

CompileEvent sampleCompileFinish(CompileEvent start, const std::string& status,
                                 int64_t durationNs) {
    start.status = status;
    start.durationNs = durationNs;
    start.phases = {
        {"trace", durationNs / 2}, {"guards", durationNs / 8}, {"backend_compile", durationNs / 4}};
    return start;
}

GuardEvent sampleGuard(const std::string& compileId, int index) {
    GuardEvent guard;
    guard.compileId = compileId;
    guard.kind = "TENSOR_MATCH";
    guard.source = "L['x" + std::to_string(index) + "']";
    guard.expression = "check_tensor(L['x" + std::to_string(index) +
                       "'], Tensor, DispatchKeySet(CPU), torch.float32, device=None, "
                       "requires_grad=False, size=[8, 16], stride=[16, 1])";
    guard.expected = "torch.float32 [8, 16]";
    guard.userLine = 5 + index % 7;
    return guard;
}

GraphEvent sampleGraph(const std::string& compileId, int32_t graphIndex, int nodeCount) {
    GraphEvent graph;
    graph.compileId = compileId;
    graph.graphIndex = graphIndex;
    graph.readableCode = "class GraphModule(torch.nn.Module):\n"
                         "    def forward(self, L_x_: \"f32[8, 16]\"):\n"
                         "        return (sin,)\n";
    graph.nodeCount = nodeCount;
    graph.opCount = nodeCount - 2;
    graph.nodes.push_back({"l_x_", "placeholder", "L_x_", "", "[8, 16]", "torch.float32", 0});
    for (int i = 1; i + 1 < nodeCount; ++i)
        graph.nodes.push_back({"sin_" + std::to_string(i), "call_function", "torch.sin",
                               i == 1 ? "(l_x_,)" : "(sin_" + std::to_string(i - 1) + ",)",
                               "[8, 16]", "torch.float32", 5 + i});
    graph.nodes.push_back({"output", "output", "output", "((sin,),)", "", "", 0});
    return graph;
}

KernelEvent sampleKernel(int64_t kernelId, const std::string& compileId, int32_t graphIndex) {
    KernelEvent kernel;
    kernel.kernelId = kernelId;
    kernel.compileId = compileId;
    kernel.graphIndex = graphIndex;
    kernel.name = "kiln_poi_fused_sin_" + std::to_string(kernelId);
    kernel.kind = "pointwise";
    kernel.fusedNodes = "sin_1,sin_2";
    kernel.sourceCode = "def kernel(in_ptr0, out_ptr0):\n    out_ptr0[i] = sin(sin(in_ptr0[i]))\n"
                        "; ModuleID = 'kiln_poi_fused_sin'\n";
    kernel.launchConfig = "threads=2 outer=8 inner=16 vector=16";
    return kernel;
}

KernelLaunchEvent sampleLaunch(int64_t kernelId, int64_t startNs, int64_t durationNs) {
    KernelLaunchEvent launch;
    launch.kernelId = kernelId;
    launch.startNs = startNs;
    launch.endNs = startNs + durationNs;
    launch.device = "cpu";
    launch.grid = "threads=2";
    return launch;
}

DiagramEvent sampleDiagram(const std::string& compileId, int32_t graphIndex,
                           const std::string& kind) {
    DiagramEvent diagram;
    diagram.compileId = compileId;
    diagram.graphIndex = graphIndex;
    diagram.kind = kind;
    diagram.dot = "digraph G {\n  label=\"" + kind +
                  "\";\n  l_x_ -> sin_1;\n  sin_1 -> sin_2;\n  sin_2 -> output;\n}\n";
    return diagram;
}

std::string sampleMachineJson(int threads) {
    return R"json({"cpu": "AMD EPYC 9B14", "isa": "avx512", "threads": )json" +
           std::to_string(threads) +
           R"json(, "matmul": {"float32": "oneDNN 2.6.3 (avx512_core_bf16)", )json"
           R"json("bfloat16": "oneDNN 2.6.3 (avx512_core_bf16), native", )json"
           R"json("float64": "BLIS 0.9.0 (zen3)"}})json";
}

AutotuneChoiceEvent sampleChoice(int64_t kernelId, const std::string& candidate, int64_t timeNs,
                                 int runs) {
    AutotuneChoiceEvent choice;
    choice.kernelId = kernelId;
    choice.candidate = candidate;
    choice.timeNs = timeNs;
    choice.runs = runs;
    choice.minNs = timeNs - timeNs / 10;
    choice.maxNs = timeNs + timeNs / 10;
    return choice;
}

} // namespace kiln::testing
