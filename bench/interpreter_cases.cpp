// SPDX-License-Identifier: MIT
// Interpreter dispatch overhead: a script loop of N operations, minus the same loop doing
// nothing, divided by N. Baselines: the empty loop for arithmetic, the direct C++ tensor call
// for eager tensor ops (so the ratio is the interpreter's overhead over the kernel itself).
#include "bench.h"
#include "lang/interpreter.h"
#include "lang/parser.h"
#include "lang/traceback.h"
#include "support/event_sink.h"
#include "tensor/ops.h"
#include "torchapi/install.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

namespace kiln::bench {

namespace {

constexpr int kRepeats = 5;

/// Runs `source` with {N} replaced by the iteration count; returns wall nanoseconds of the
/// whole script (parsing and setup are negligible next to the loops measured).
double scriptNs(const std::string& source, int64_t iterations) {
    std::string text = source;
    for (size_t pos = text.find("{N}"); pos != std::string::npos; pos = text.find("{N}"))
        text.replace(pos, 3, std::to_string(iterations));
    auto file = std::make_shared<SourceFile>("<bench>", text);
    auto module = lang::parseModule(file);
    if (!module.ok()) throw std::runtime_error(module.error().render());
    return medianNs(kRepeats, [&] {
        NullEventSink sink;
        lang::Interpreter interp(sink);
        torchapi::installTorch(interp);
        try {
            interp.runMain(module.value());
        } catch (lang::PyException& e) {
            throw std::runtime_error(lang::formatTraceback(interp, e.exception));
        }
    });
}

/// ns per operation of `body` inside a loop, net of the loop itself.
double perOp(const std::string& setup, const std::string& body, int64_t n) {
    std::string loop = setup + "for i in range({N}):\n    " + body + "\n";
    std::string empty = setup + "for i in range({N}):\n    pass\n";
    return (scriptNs(loop, n) - scriptNs(empty, n)) / static_cast<double>(n);
}

double emptyLoopPerIteration(int64_t n) {
    return (scriptNs("for i in range({N}):\n    pass\n", n) - scriptNs("pass\n", 0)) /
           static_cast<double>(n);
}

Measurement intAdd(int64_t n) {
    Measurement m{"int_add", "s = s + i in a for loop (64-bit ints)",
                  "one iteration of an empty for loop"};
    m.iterations = n;
    m.nsPerOp = perOp("s = 0\n", "s = s + i", n);
    m.baselineNsPerOp = emptyLoopPerIteration(n);
    m.goalNsPerOp = 100;
    return m;
}

Measurement tensorAdd(int64_t n) {
    Measurement m{"tensor_add_16", "z = x + y, float32 tensors of 16 elements",
                  "tensor::binary(Add) called directly from C++"};
    m.iterations = n;
    m.nsPerOp = perOp("import torch\nx = torch.ones(16)\ny = torch.ones(16)\n", "z = x + y", n);
    tensor::Tensor x = tensor::ones(std::vector<int64_t>{16}, {});
    tensor::Tensor y = tensor::ones(std::vector<int64_t>{16}, {});
    m.baselineNsPerOp = medianNs(kRepeats,
                                 [&] {
                                     for (int64_t i = 0; i < n; ++i)
                                         tensor::binary(tensor::BinaryOp::Add, x, y);
                                 }) /
                        static_cast<double>(n);
    m.goalNsPerOp = 2000;
    return m;
}

Measurement tensorMethod(int64_t n) {
    Measurement m{"tensor_method_16", "z = x.mul(y), a Tensor method call on 16 elements",
                  "tensor::binary(Mul) called directly from C++"};
    m.iterations = n;
    m.nsPerOp = perOp("import torch\nx = torch.ones(16)\ny = torch.ones(16)\n", "z = x.mul(y)", n);
    tensor::Tensor x = tensor::ones(std::vector<int64_t>{16}, {});
    tensor::Tensor y = tensor::ones(std::vector<int64_t>{16}, {});
    m.baselineNsPerOp = medianNs(kRepeats,
                                 [&] {
                                     for (int64_t i = 0; i < n; ++i)
                                         tensor::binary(tensor::BinaryOp::Mul, x, y);
                                 }) /
                        static_cast<double>(n);
    m.goalNsPerOp = 2000;
    return m;
}

Measurement functionCall(int64_t n) {
    Measurement m{"function_call", "f(i) for a one-line Python function", "s = s + i"};
    m.iterations = n;
    m.nsPerOp = perOp("def f(a):\n    return a\n", "f(i)", n);
    m.baselineNsPerOp = perOp("s = 0\n", "s = s + i", n);
    return m;
}

Measurement moduleForward(int64_t n) {
    Measurement m{"linear_forward_1x16", "y = layer(x): nn.Linear(16, 16) on a 1x16 input",
                  "F.linear(x, w, b) called from the script"};
    m.iterations = n;
    std::string setup = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
                        "layer = nn.Linear(16, 16)\nx = torch.ones(1, 16)\n"
                        "w = layer.weight\nb = layer.bias\n";
    m.nsPerOp = perOp(setup, "y = layer(x)", n);
    m.baselineNsPerOp = perOp(setup, "y = F.linear(x, w, b)", n);
    return m;
}

} // namespace

double medianNs(int repeats, const std::function<void()>& fn) {
    std::vector<double> samples;
    for (int r = 0; r < repeats; ++r) {
        auto start = std::chrono::steady_clock::now();
        fn();
        samples.push_back(static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                  std::chrono::steady_clock::now() - start)
                                                  .count()));
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

std::vector<Case> interpreterCases() {
    return {
        {"int_add", intAdd, 1000000},
        {"tensor_add_16", tensorAdd, 100000},
        {"tensor_method_16", tensorMethod, 100000},
        {"function_call", functionCall, 300000},
        {"linear_forward_1x16", moduleForward, 50000},
    };
}

} // namespace kiln::bench
