// SPDX-License-Identifier: MIT
// Recompile reports: which guard of each cache entry rejected a call, in PyTorch 2.3's words.
#include "capture/capture_session.h"
#include "capture/value_kinds.h"

namespace kiln::capture {

using lang::Value;

RecompileReport describeRecompile(lang::Interpreter& interp, const FrameRecord& rec,
                                  const std::vector<Value>& slots, lang::ModuleObject& globals) {
    RecompileReport report;
    for (const auto& entry : rec.entries) {
        std::vector<int32_t> failing = entry->guards.allFailures(interp, slots, globals);
        if (failing.empty()) continue;
        RecompileReport::Failure f;
        f.compileId = entry->compileId;
        for (int32_t index : failing) {
            const Guard& g = entry->guards.guards[static_cast<size_t>(index)];
            Value v = g.source()->fetch(interp, slots, globals);
            f.all.push_back(g.failure(interp, v));
            if (f.all.size() > 1) continue;
            f.source = g.source()->str();
            f.expected = g.expectedText(interp);
            f.actual = g.actualText(interp, v);
            f.text = f.all.front();
        }
        report.failures.push_back(std::move(f));
    }
    return report;
}

namespace {

std::string location(const FrameRecord& rec) {
    return rec.file + ":" + std::to_string(rec.firstLine);
}

} // namespace

std::string recompileMessage(const FrameRecord& rec, const RecompileReport& report, bool verbose) {
    std::string text = "Recompiling function " + rec.name + " in " + location(rec) +
                       "\n    triggered by the following guard failure(s):";
    if (!verbose) {
        for (const auto& f : report.failures)
            text += "\n    - " + f.text;
        return text;
    }
    for (size_t i = 0; i < report.failures.size(); ++i) {
        text += (i ? "\n\n" : "\n") + std::string("    guard ") + std::to_string(i) + " failures:";
        for (const std::string& line : report.failures[i].all)
            text += "\n    - " + line;
    }
    return text;
}

std::string cacheLimitMessage(const FrameRecord& rec, int64_t limit,
                              const RecompileReport& report) {
    std::string last = report.failures.empty() ? "" : report.failures.front().text;
    return "torch._dynamo hit config.cache_size_limit (" + std::to_string(limit) +
           ")\n   function: '" + rec.name + "' (" + location(rec) + ")\n   last reason: " + last +
           "\nTo log all recompilation reasons, use TORCH_LOGS=\"recompiles\".\nTo diagnose "
           "recompilation issues, see "
           "https://pytorch.org/docs/main/torch.compiler_troubleshooting.html.";
}

std::vector<Value> graphOutputs(lang::Interpreter& interp, const Value& result, size_t count) {
    std::vector<Value> outputs =
        result.is(lang::ObjectKind::Tuple) || result.is(lang::ObjectKind::List)
            ? sequenceItems(result)
            : interp.toVector(result);
    if (outputs.size() != count)
        interp.raise(lang::builtinTypes().runtimeError.get(),
                     "compiled graph returned " + std::to_string(outputs.size()) +
                         " outputs, expected " + std::to_string(count));
    return outputs;
}

bool isContainerModule(lang::Interpreter& interp, const Value& module) {
    const std::string name = interp.typeName(module);
    return name == "Sequential" || name == "ModuleList" || name == "ModuleDict";
}

} // namespace kiln::capture
