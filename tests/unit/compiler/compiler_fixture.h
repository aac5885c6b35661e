// SPDX-License-Identifier: MIT
/// \file
/// An interpreter with torch, the capture engine and Kiln's compiler installed, recording what
/// the compiler reports (kernels, pass IR): what the compiler tests share.
#pragma once

#include "capture/compile_api.h"
#include "inductor/inductor_backend.h"
#include "snippet_runner.h"
#include "torchapi/config_modules.h"
#include "torchapi/install.h"

#include <string>
#include <vector>

namespace kiln::testing {

class CompilerRecorder final : public EventSink {
public:
    void output(OutputStream stream, std::string_view text) override {
        (stream == OutputStream::Stdout ? out : err) += text;
    }
    void kernel(const KernelEvent& e) override { kernels.push_back(e); }
    void graph(const GraphEvent& e) override { graphs.push_back(e); }
    void timeline(const TimelineEvent& e) override {
        (e.category == "pass" ? passes : otherTimeline).push_back(e);
    }
    void autotuneChoice(const AutotuneChoiceEvent& e) override { choices.push_back(e); }
    void kernelLaunch(const KernelLaunchEvent& e) override { launches.push_back(e); }
    void diagram(const DiagramEvent& e) override { diagrams.push_back(e); }

    std::vector<KernelEvent> kernels;
    std::vector<GraphEvent> graphs; ///< Dynamo's graphs and AOT autograd's
    std::vector<TimelineEvent> passes;
    std::vector<TimelineEvent> otherTimeline; ///< autotune progress, perf hints, compiles
    std::vector<AutotuneChoiceEvent> choices;
    std::vector<KernelLaunchEvent> launches;
    std::vector<DiagramEvent> diagrams;
    std::string out, err;
};

class CompilerFixture {
public:
    explicit CompilerFixture(std::string file = "compiled.py")
        : m_snippets(interp, "", std::move(file)) {
        engine.setInductorCompiler(inductor::makeInductorCompiler());
        torchapi::TorchOptions options;
        options.onImported = [this](lang::Interpreter& i, lang::ModuleObject&) {
            capture::installCompileApi(i, engine);
        };
        torchapi::installTorch(interp, options);
    }

    std::string run(const std::string& code) { return m_snippets.run(code); }

    /// Names of the kernels reported since the last clear.
    std::vector<std::string> kernelNames() const {
        std::vector<std::string> names;
        for (const KernelEvent& k : sink.kernels)
            names.push_back(k.name);
        return names;
    }

    CompilerRecorder sink;
    lang::Interpreter interp{sink};
    Logger logger{sink};
    torchapi::ScriptCompileConfig config{interp};
    capture::CaptureEngine engine{interp, config, sink, logger};

private:
    SnippetRunner m_snippets;
};

} // namespace kiln::testing
