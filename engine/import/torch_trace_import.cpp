// SPDX-License-Identifier: MIT
#include "import/torch_trace_import.h"

#include "import/extras_store.h"
#include "import/payload_text.h"
#include "support/clock.h"
#include "trace/trace_writer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

namespace kiln::importer {
namespace {

using nlohmann::json;

std::string text(const json& object, const char* key) {
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

double number(const json& object, const char* key) {
    auto it = object.find(key);
    return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

// The member \p key of \p object, or null when \p object is no object or lacks it: a const
// json's operator[] must not see a missing key, and a damaged log may have anything anywhere.
const json& member(const json& object, const char* key) {
    static const json kNull;
    if (!object.is_object()) return kNull;
    auto it = object.find(key);
    return it == object.end() ? kNull : *it;
}

int64_t integer(const json& object, const char* key, int64_t fallback) {
    auto it = object.find(key);
    return it != object.end() && it->is_number_integer() ? it->get<int64_t>() : fallback;
}

/// Seconds since midnight of a glog prefix's "MMDD HH:MM:SS.ffffff"; -1 when it is not one.
double secondsOfDay(const std::string& timestamp) {
    int hours = 0, minutes = 0;
    double seconds = 0;
    size_t space = timestamp.find(' ');
    if (space == std::string::npos ||
        std::sscanf(timestamp.c_str() + space + 1, "%d:%d:%lf", &hours, &minutes, &seconds) != 3)
        return -1;
    return hours * 3600.0 + minutes * 60.0 + seconds;
}

/// The innermost entry of a symbolic-shapes record's user_stack, "file:line: code".
std::string userLocation(const json& stack, const LogReader& reader) {
    if (!stack.is_array() || stack.empty() || !stack.back().is_object()) return {};
    const json& top = stack.back();
    return reader.internedString(integer(top, "filename", -1)) + ":" +
           std::to_string(integer(top, "line", 0)) + ": " + text(top, "loc");
}

// One log's import: the run's state while its records stream past.
class LogImport {
public:
    LogImport(trace::TraceWriter& writer, ImportSummary& summary, const ImportOptions& options,
              int64_t totalBytes)
        : m_writer(writer)
        , m_summary(summary)
        , m_options(options)
        , m_totalBytes(totalBytes) {}

    Status run(std::istream& in);

private:
    Status begin(const LogRecord& first);
    void record(const LogRecord& record);
    std::string compileIdOf(const LogRecord& record) const;
    int64_t at(double epochSeconds) const;
    void dynamoStart(const LogRecord& record);
    void artifact(const LogRecord& record);
    void outputGraph(const LogRecord& record);
    void aotGraph(const LogRecord& record);
    void outputCode(const LogRecord& record);
    void metrics(const LogRecord& record);
    void chromium(const LogRecord& record);
    void postGradGraph(const LogRecord& record);
    std::string inductorPass(const std::string& compileId, std::map<std::string, int>& seen);
    void symbolicShapes(const LogRecord& record);
    int64_t atPrefix(const std::string& timestamp) const;
    void finishCompile(const std::string& compileId, const json* metrics);
    void keep(const LogRecord& record, std::string kind);
    /// Reports progress every kProgressBytes; false when the caller cancels.
    bool progress(bool force);
    Status cancel();
    void provenance(const LogRecord& record);

    static constexpr int64_t kProgressBytes = 256 << 10;

    trace::TraceWriter& m_writer;
    ImportSummary& m_summary;
    const ImportOptions& m_options;
    int64_t m_totalBytes = 0;
    int64_t m_reportedBytes = 0;
    LogReader* m_reader = nullptr;
    int64_t m_baseMonotonicNs = 0; ///< monotonicNs() standing for the run's start
    int64_t m_startEpochNs = 0;
    std::set<int64_t> m_frames;
    std::map<std::string, int64_t> m_frameByName; ///< "file\nfunction" -> its newest frame id
    std::map<std::string, CompileEvent> m_open;   ///< compiles not yet finished
    std::set<std::string> m_broken;               ///< compiles with a graph break
    std::map<std::string, int32_t> m_graphIndex;
    int32_t m_nextGraph = 0;
    int64_t m_nextKernel = 1;
    std::map<std::string, std::vector<double>> m_chromiumOpen; ///< "name|compile" -> begin ts
    ExtrasSpool m_extras;
    std::set<std::string> m_attempts;                        ///< "f/c/a" seen in any envelope
    std::map<std::string, std::set<std::string>> m_aotKinds; ///< compile id -> AOT graph kinds
    std::map<std::string, int> m_outputCodes;                ///< compile id -> output codes seen
    std::map<std::string, int> m_postGradGraphs; ///< compile id -> post-grad graphs seen
    double m_firstPrefixSeconds = -1;            ///< the first record's glog time of day
    int64_t m_lastRecordNs = 0;                  ///< the newest record's time, run-relative
};

std::string LogImport::compileIdOf(const LogRecord& record) const {
    const json& e = record.envelope;
    if (!e.contains("frame_id") || !e.contains("frame_compile_id")) return "";
    return std::to_string(integer(e, "frame_id", 0)) + "/" +
           std::to_string(integer(e, "frame_compile_id", 0));
}

// Log times are Unix epoch seconds; the writer wants monotonicNs() values it makes
// run-relative, so each is placed at the same distance from the run's start.
int64_t LogImport::at(double epochSeconds) const {
    if (epochSeconds <= 0) return m_baseMonotonicNs;
    return m_baseMonotonicNs + std::max<int64_t>(0, int64_t(epochSeconds * 1e9) - m_startEpochNs);
}

Status LogImport::begin(const LogRecord& first) {
    trace::RunInfo info;
    info.workloadPath = m_summary.logPath;
    info.mode = "imported";
    info.backend = "inductor";
    info.argv = {"kiln", "import", m_summary.logPath};
    info.pid = first.pid != 0 ? first.pid : -1;
    // The glog prefix has no year; the first chromium event's ts (epoch microseconds) does.
    if (first.kind == "chromium_event" && first.hasPayload) {
        json event = json::parse(first.payload, nullptr, false);
        if (event.is_object()) m_startEpochNs = int64_t(number(event, "ts") * 1e3);
    }
    info.startedAtNs = m_startEpochNs;
    m_firstPrefixSeconds = secondsOfDay(first.timestamp);
    auto runId = m_writer.beginRun(info);
    if (!runId) return runId.error();
    m_summary.runId = runId.value();
    m_baseMonotonicNs = monotonicNs();
    if (m_startEpochNs == 0) m_startEpochNs = wallClockNs();
    return Status();
}

void LogImport::keep(const LogRecord& record, std::string kind) {
    ++m_summary.extras;
    ++m_summary.extraKinds[kind];
    m_extras.append({record.line, std::move(kind), compileIdOf(record), record.envelope.dump(),
                     record.payload});
}

void LogImport::dynamoStart(const LogRecord& record) {
    std::string compileId = compileIdOf(record);
    const json& stack = member(member(record.envelope, "dynamo_start"), "stack");
    if (compileId.empty() || !stack.is_array() || stack.empty() || !stack.back().is_object())
        return keep(record, "dynamo_start");
    const json& top = stack.back();
    int64_t frameId = integer(record.envelope, "frame_id", 0);
    if (m_frames.insert(frameId).second) {
        FrameEvent frame;
        frame.frameId = frameId;
        frame.function = text(top, "name");
        frame.file = m_reader->internedString(integer(top, "filename", -1));
        frame.line = int32_t(integer(top, "line", 0));
        // Dynamo names a resume function torch_dynamo_resume_in_FN_at_LINE.
        constexpr std::string_view kResume = "torch_dynamo_resume_in_";
        frame.kind = frame.function.starts_with(kResume) ? "resume" : "function";
        if (size_t at = frame.function.rfind("_at_");
            frame.kind == "resume" && at != std::string::npos) {
            frame.resumeLine = int32_t(std::atoi(frame.function.c_str() + at + 4));
            // The frame it continues: the newest one of that name in the same file.
            std::string parent = frame.function.substr(kResume.size(), at - kResume.size());
            if (auto it = m_frameByName.find(frame.file + "\n" + parent); it != m_frameByName.end())
                frame.parentFrameId = it->second;
        }
        m_frameByName[frame.file + "\n" + frame.function] = frameId;
        m_writer.frame(frame);
        ++m_summary.frames;
    }
    if (m_open.count(compileId) || m_graphIndex.count(compileId)) return; // a restart
    CompileEvent compile;
    compile.compileId = compileId;
    compile.frameId = frameId;
    compile.compileIndex = int32_t(integer(record.envelope, "frame_compile_id", 0));
    compile.reason = compile.compileIndex == 0 ? "first" : "recompile";
    compile.startNs = m_baseMonotonicNs; // refined by compilation_metrics' start_time
    compile.backend = "inductor";
    m_writer.compile(compile);
    m_open[compileId] = compile;
    ++m_summary.compiles;
}

void LogImport::artifact(const LogRecord& record) {
    std::string name = text(member(record.envelope, "artifact"), "name");
    std::string compileId = compileIdOf(record);
    if (name == "dynamo_graph_break_reason" && !compileId.empty()) {
        GraphBreakEvent event = parseGraphBreakReason(record.payload);
        event.compileId = compileId;
        event.order = int32_t(++m_summary.breaks);
        m_writer.graphBreak(event);
        m_broken.insert(compileId);
        return;
    }
    if (name == "inductor_post_grad_graph") return postGradGraph(record);
    if (name == "recompile_reasons" && !compileId.empty()) {
        // One "F/C: reason" per cache entry that did not pass; JSON-encoded list or plain text.
        json reasons = json::parse(record.payload, nullptr, false);
        std::vector<std::string> lines;
        if (reasons.is_array())
            for (const json& reason : reasons)
                lines.push_back(reason.is_string() ? reason.get<std::string>() : reason.dump());
        else
            lines.push_back(record.payload);
        for (const std::string& line : lines) {
            RecompileEvent event;
            event.compileId = compileId;
            event.reason = line;
            if (size_t colon = line.find(": "); colon != std::string::npos && colon < 24) {
                event.failedCompileId = line.substr(0, colon);
                FailedGuardText guard = parseRecompileReason(line.substr(colon + 2));
                event.guardSource = guard.source;
                event.expected = guard.expected;
                event.actual = guard.actual;
            }
            m_writer.recompile(event);
            ++m_summary.recompileRows;
        }
        ++m_summary.recompiles;
        return;
    }
    keep(record, "artifact:" + name);
}

/// A graph printed as print_readable prints it (a Dynamo graph or an AOT graph), with its nodes
/// and counts as compilation_metrics counts them.
GraphEvent readableGraph(const std::string& compileId, int32_t graphIndex,
                         const std::string& code) {
    GraphEvent graph;
    graph.compileId = compileId;
    graph.graphIndex = graphIndex;
    graph.readableCode = code;
    graph.nodes = parseReadableGraph(code);
    graph.nodeCount = int32_t(graph.nodes.size());
    for (const GraphNodeInfo& node : graph.nodes)
        graph.opCount +=
            node.op == "call_function" || node.op == "call_method" || node.op == "call_module";
    return graph;
}

void LogImport::outputGraph(const LogRecord& record) {
    std::string compileId = compileIdOf(record);
    if (compileId.empty()) return keep(record, "dynamo_output_graph");
    GraphEvent graph = readableGraph(compileId, m_nextGraph++, record.payload);
    m_graphIndex[compileId] = graph.graphIndex;
    m_writer.graph(graph);
    ++m_summary.graphs;
}

/// aot_joint_graph, aot_forward_graph, aot_backward_graph, aot_inference_graph: what AOT
/// autograd made of the compile's Dynamo graph, a `graphs` row of that kind linked to it.
void LogImport::aotGraph(const LogRecord& record) {
    std::string compileId = compileIdOf(record);
    auto index = m_graphIndex.find(compileId);
    if (index == m_graphIndex.end()) return keep(record, record.kind);
    GraphEvent graph = readableGraph(compileId, index->second, record.payload);
    graph.kind = record.kind.substr(0, record.kind.size() - std::string_view("_graph").size());
    m_aotKinds[compileId].insert(graph.kind);
    m_writer.graph(graph);
    ++m_summary.aotGraphs;
}

/// Which AOT graph the next of a compile's Inductor records (output code, post-grad graph) is
/// of: "inference", or for training "forward" first and "backward" second (Inductor compiles
/// them in that order); empty when there is no such graph. \p seen counts them per compile.
std::string LogImport::inductorPass(const std::string& compileId,
                                    std::map<std::string, int>& seen) {
    const std::set<std::string>& aot = m_aotKinds[compileId];
    int nth = seen[compileId]++;
    return aot.count("aot_inference")              ? "inference"
           : aot.count("aot_forward") && nth == 0  ? "forward"
           : aot.count("aot_backward") && nth == 1 ? "backward"
                                                   : "";
}

void LogImport::outputCode(const LogRecord& record) {
    std::string compileId = compileIdOf(record);
    auto graph = m_graphIndex.find(compileId);
    if (graph == m_graphIndex.end()) return keep(record, "inductor_output_code");
    std::string pass = inductorPass(compileId, m_outputCodes);
    for (KernelEvent& kernel : parseOutputCode(record.payload)) {
        kernel.graphKind = pass.empty() ? "" : "aot_" + pass;
        kernel.kernelId = m_nextKernel++;
        kernel.compileId = compileId;
        kernel.graphIndex = graph->second;
        m_writer.kernel(kernel);
        ++m_summary.kernels;
    }
    // The Python wrapper that calls them has no kernels row of its own: kept whole.
    keep(record, "inductor_output_code");
}

/// The graph Inductor lowers (after its post-grad passes): a `graphs` row of kind
/// post_grad_inference, or for training post_grad_forward then post_grad_backward (Inductor
/// compiles them in that order), linked to the compile's Dynamo graph like the AOT graphs.
void LogImport::postGradGraph(const LogRecord& record) {
    std::string compileId = compileIdOf(record);
    auto index = m_graphIndex.find(compileId);
    const std::string extra =
        record.kind == "artifact" ? "artifact:inductor_post_grad_graph" : record.kind;
    if (index == m_graphIndex.end()) return keep(record, extra);
    std::string pass = inductorPass(compileId, m_postGradGraphs);
    if (pass.empty()) return keep(record, extra);
    GraphEvent graph = readableGraph(compileId, index->second, record.payload);
    graph.kind = "post_grad_" + pass;
    m_writer.graph(graph);
    ++m_summary.postGradGraphs;
}

/// create_symbol, guard_added_fast, propagate_real_tensors: the shape environment's symbols
/// and the guards it added, as `events` rows (category symbolic_shapes) at the record's time,
/// the record's fields as detail, its user location instead of the whole stack.
void LogImport::symbolicShapes(const LogRecord& record) {
    const json& fields = member(record.envelope, record.kind.c_str());
    if (!fields.is_object()) return keep(record, record.kind);
    json detail = json::object();
    for (auto it = fields.begin(); it != fields.end(); ++it)
        if (it.key() != "stack" && it.key() != "user_stack") detail[it.key()] = it.value();
    if (std::string where = userLocation(member(fields, "user_stack"), *m_reader); !where.empty())
        detail["user_location"] = where;
    TimelineEvent event;
    event.category = "symbolic_shapes";
    event.name = record.kind == "guard_added_fast" ? "guard_added" : record.kind;
    event.compileId = compileIdOf(record);
    event.startNs = atPrefix(record.timestamp);
    event.detailJson = detail.dump();
    m_writer.timeline(event);
    ++m_summary.events;
    ++m_summary.symbolicShapes;
}

// A record's glog time, placed from the first record's (a run spanning midnight wraps once).
int64_t LogImport::atPrefix(const std::string& timestamp) const {
    double seconds = secondsOfDay(timestamp);
    if (seconds < 0 || m_firstPrefixSeconds < 0) return m_baseMonotonicNs;
    double since = seconds - m_firstPrefixSeconds;
    if (since < 0) since += 86400;
    return m_baseMonotonicNs + int64_t(since * 1e9);
}

void LogImport::finishCompile(const std::string& compileId, const json* metrics) {
    auto it = m_open.find(compileId);
    if (it == m_open.end()) return;
    CompileEvent compile = it->second;
    m_open.erase(it);
    compile.status = m_broken.count(compileId) ? "break" : "ok";
    if (metrics) {
        compile.startNs = at(number(*metrics, "start_time"));
        compile.durationNs = int64_t(number(*metrics, "entire_frame_compile_time_s") * 1e9);
        std::string failure = text(*metrics, "fail_type");
        if (!failure.empty()) {
            compile.status = "failed";
            compile.failure = failure + ": " + text(*metrics, "fail_reason");
        } else if (member(*metrics, "has_guarded_code") == json(false) && compile.status == "ok") {
            compile.status = "skipped";
        }
        for (const char* phase :
             {"backend_compile_time_s", "inductor_compile_time_s", "code_gen_time_s"})
            if (member(*metrics, phase).is_number())
                compile.phases.emplace_back(phase, int64_t(number(*metrics, phase) * 1e9));
    }
    m_writer.compile(compile);
}

void LogImport::metrics(const LogRecord& record) {
    const json& m = member(record.envelope, "compilation_metrics");
    std::string compileId = text(m, "compile_id");
    if (!m.is_object() || compileId.empty()) return keep(record, "compilation_metrics");
    if (m_summary.pytorchVersion.empty()) {
        m_summary.pytorchVersion = text(m, "pytorch_version");
        m_summary.pythonVersion = text(m, "python_version");
        m_summary.cudaVersion = text(m, "cuda_version");
    }
    finishCompile(compileId, &m);
    TimelineEvent event;
    event.category = "compile";
    event.name = "compilation_metrics";
    event.compileId = compileId;
    event.startNs = at(number(m, "start_time"));
    event.durationNs = int64_t(number(m, "entire_frame_compile_time_s") * 1e9);
    event.detailJson = m.dump();
    m_writer.timeline(event);
    ++m_summary.events;
}

void LogImport::chromium(const LogRecord& record) {
    json event = json::parse(record.payload, nullptr, false);
    std::string phase = event.is_object() ? text(event, "ph") : "";
    if (phase != "B" && phase != "E") return keep(record, "chromium_event");
    std::string compileId = text(member(event, "args"), "compile_id");
    std::string key = text(event, "name") + "|" + compileId;
    double ts = number(event, "ts"); // epoch microseconds
    if (phase == "B") return m_chromiumOpen[key].push_back(ts);
    auto open = m_chromiumOpen.find(key);
    if (open == m_chromiumOpen.end() || open->second.empty()) return keep(record, "chromium_event");
    TimelineEvent span;
    span.category = "pytorch";
    span.name = text(event, "name");
    span.compileId = compileId;
    span.startNs = at(open->second.back() / 1e6);
    span.durationNs = std::max<int64_t>(0, int64_t((ts - open->second.back()) * 1e3));
    span.detailJson = member(event, "args").is_object() ? member(event, "args").dump() : "{}";
    open->second.pop_back();
    m_writer.timeline(span);
    ++m_summary.events;
}

void LogImport::record(const LogRecord& record) {
    ++m_summary.records;
    m_lastRecordNs = std::max(m_lastRecordNs, atPrefix(record.timestamp) - m_baseMonotonicNs);
    if (m_summary.rank < 0) m_summary.rank = integer(record.envelope, "rank", -1);
    if (std::string compileId = compileIdOf(record); !compileId.empty())
        m_attempts.insert(compileId + "/" + std::to_string(integer(record.envelope, "attempt", 0)));
    const std::string& kind = record.kind;
    if (kind == "dynamo_start") return dynamoStart(record);
    if (kind == "artifact") return artifact(record);
    if (kind == "dynamo_output_graph") return outputGraph(record);
    if (kind == "aot_joint_graph" || kind == "aot_forward_graph" || kind == "aot_backward_graph" ||
        kind == "aot_inference_graph")
        return aotGraph(record);
    if (kind == "inductor_output_code") return outputCode(record);
    if (kind == "compilation_metrics") return metrics(record);
    if (kind == "chromium_event") return chromium(record);
    if (kind == "create_symbol" || kind == "guard_added_fast" || kind == "propagate_real_tensors")
        return symbolicShapes(record);
    if ((kind == "dynamo_cpp_guards_str" || kind == "dynamo_guards") &&
        !compileIdOf(record).empty()) {
        // 2.6 on print the C++ guard tree; 2.3 to 2.5 a JSON list of Python checks.
        for (const GuardEvent& guard : kind == "dynamo_guards"
                                           ? parseGuardList(record.payload, compileIdOf(record))
                                           : parseCppGuards(record.payload, compileIdOf(record))) {
            m_writer.guard(guard);
            ++m_summary.guards;
        }
        return;
    }
    if (kind == "inductor_post_grad_graph") return postGradGraph(record); // 2.3: not an artifact
    keep(record, kind.empty() ? "unnamed" : kind);
}

Status LogImport::run(std::istream& in) {
    LogReader reader(in);
    m_reader = &reader;
    LogRecord current;
    bool any = reader.next(current);
    if (Status status = begin(any ? current : LogRecord()); !status) return status;
    for (; any; any = reader.next(current)) {
        record(current);
        if (!progress(false)) return cancel();
    }
    if (!progress(true)) return cancel();
    std::vector<std::string> unfinished;
    for (const auto& [compileId, compile] : m_open)
        unfinished.push_back(compileId);
    for (const std::string& compileId : unfinished)
        finishCompile(compileId, nullptr);
    m_summary.attempts = int64_t(m_attempts.size());
    m_summary.md5Mismatches = reader.md5Mismatches();
    m_summary.linesRead = reader.linesRead();
    m_summary.problemCount = reader.problemCount();
    m_summary.problems = reader.problems();
    if (Status status = m_writer.flush(); !status) return status;
    Status finished = m_writer.finishRun(trace::RunStatus::Ok, 0);
    if (!finished) return finished;
    if (Status stored = storeImportProvenance(m_writer.path(), m_summary.runId,
                                              provenanceJson(m_summary), m_lastRecordNs);
        !stored)
        return stored;
    return m_extras.store(m_writer.path(), m_summary.runId);
}

bool LogImport::progress(bool force) {
    if (!m_options.progress) return true;
    int64_t done = m_reader->bytesRead();
    if (!force && done - m_reportedBytes < kProgressBytes) return true;
    m_reportedBytes = done;
    return m_options.progress(done, m_totalBytes);
}

Status LogImport::cancel() {
    // What was read stays, marked: the run ends `cancelled` and says where the import stopped.
    trace::RunError error;
    error.type = kImportCancelled;
    error.message = "the import was cancelled after line " + std::to_string(m_reader->linesRead()) +
                    " of " + m_summary.logPath;
    if (Status flushed = m_writer.flush(); !flushed) return flushed;
    if (Status finished = m_writer.finishRun(trace::RunStatus::Cancelled, 0, &error); !finished)
        return finished;
    return makeDiagnostic(kImportCancelled, error.message);
}

} // namespace

std::vector<std::string> torchTraceLogsIn(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code error;
    if (!fs::is_directory(path, error))
        return fs::exists(path, error) ? std::vector<std::string>{path}
                                       : std::vector<std::string>{};
    // PyTorch names each process's log dedicated_log_torch_trace_rank_N_XXXX.log.
    auto rankOf = [](const std::string& name) -> int64_t {
        size_t at = name.find("_rank_");
        return at == std::string::npos ? -1 : std::atoll(name.c_str() + at + 6);
    };
    std::vector<std::pair<int64_t, std::string>> logs;
    for (const fs::directory_entry& entry : fs::directory_iterator(path, error)) {
        std::string name = entry.path().filename().string();
        if (entry.is_regular_file(error) && name.ends_with(".log"))
            logs.emplace_back(rankOf(name), entry.path().string());
    }
    std::sort(logs.begin(), logs.end());
    std::vector<std::string> paths;
    for (auto& [rank, log] : logs)
        paths.push_back(std::move(log));
    return paths;
}

Expected<ImportSummary> importTorchTraceLog(const std::string& logPath, trace::TraceWriter& writer,
                                            const ImportOptions& options) {
    std::error_code dirError;
    if (std::filesystem::is_directory(logPath, dirError))
        return makeDiagnostic("ImportError",
                              "'" + logPath + "' is a directory: import the .log files in it");
    std::ifstream in(logPath, std::ios::binary);
    if (!in)
        return makeDiagnostic("ImportError", "cannot read '" + logPath +
                                                 "': " + std::string(std::strerror(errno)));
    ImportSummary summary;
    summary.logPath = logPath;
    std::error_code sizeError;
    auto size = std::filesystem::file_size(logPath, sizeError);
    LogImport import(writer, summary, options, sizeError ? 0 : int64_t(size));
    if (Status status = import.run(in); !status) return status.error();
    return summary;
}

} // namespace kiln::importer
