// SPDX-License-Identifier: MIT
// TORCH_LOGS parsing and enablement, checked against what PyTorch 2.15 does for the same
// settings (the expected texts and outcomes were taken from real `TORCH_LOGS=... python3` runs).
#include "support/torch_logs.h"

#include <QtTest>
#include <string>

using kiln::Artifact;
using kiln::LogGroup;
using kiln::LogLevel;
using kiln::TorchLogs;

namespace {

TorchLogs parsed(const char* settings) {
    kiln::Expected<TorchLogs> logs = TorchLogs::parse(settings);
    if (!logs.ok())
        qFatal("TORCH_LOGS=%s did not parse: %s", settings, logs.error().message.c_str());
    return logs.value();
}

std::string parseError(const char* settings) {
    kiln::Expected<TorchLogs> logs = TorchLogs::parse(settings);
    if (logs.ok()) return "<parsed>";
    return logs.error().kind + ": " + logs.error().message;
}

const std::string kValidSettings =
    "all, aot, aot_graphs, aot_joint_graph, autotuning, bytecode, compiled_autograd, cudagraphs, "
    "ddp_graphs, distributed, dynamic, dynamo, fusion, graph, graph_breaks, graph_code, "
    "graph_sizes, guards, inductor, ir_post_fusion, ir_pre_fusion, kernel_code, "
    "not_implemented, onnx, onnx_diagnostics, output_code, overlap, perf_hints, "
    "post_grad_graphs, recompiles, recompiles_verbose, schedule, torch, trace_call, "
    "trace_source, verbose_guards";

std::string invalidText(const std::string& settings) {
    return "ValueError: \nInvalid log settings: " + settings +
           ", must be a comma separated list of fully\n"
           "qualified module names, registered log names or registered artifact names.\n"
           "For more info on various settings, try TORCH_LOGS=\"help\"\n"
           "Valid settings:\n" +
           kValidSettings + "\n";
}

} // namespace

class TorchLogsTest : public QObject {
    Q_OBJECT

private slots:
    void nothingRequested() {
        TorchLogs logs = parsed("");
        for (size_t g = 0; g < kiln::kLogGroupCount; ++g) {
            QCOMPARE(logs.requestedLevel(LogGroup(g)), LogLevel::NotSet);
            QCOMPARE(logs.effectiveLevel(LogGroup(g)), LogLevel::Warning);
        }
        QVERIFY(logs.enabled("dynamo", LogLevel::Warning));
        QVERIFY(!logs.enabled("dynamo", LogLevel::Info));
        for (size_t a = 0; a < kiln::kArtifactCount; ++a)
            QVERIFY(!logs.artifactEnabled(Artifact(a)));
    }

    void aliasLevels() {
        QCOMPARE(parsed("dynamo").requestedLevel(LogGroup::Dynamo), LogLevel::Info);
        QCOMPARE(parsed("+dynamo").requestedLevel(LogGroup::Dynamo), LogLevel::Debug);
        QCOMPARE(parsed("-dynamo").requestedLevel(LogGroup::Dynamo), LogLevel::Error);
        TorchLogs logs = parsed("+inductor,aot,-onnx");
        QCOMPARE(logs.requestedLevel(LogGroup::Inductor), LogLevel::Debug);
        QCOMPARE(logs.requestedLevel(LogGroup::Aot), LogLevel::Info);
        QCOMPARE(logs.requestedLevel(LogGroup::Onnx), LogLevel::Error);
        QCOMPARE(logs.requestedLevel(LogGroup::Dynamo), LogLevel::NotSet);
        QCOMPARE(logs.effectiveLevel(LogGroup::Dynamo), LogLevel::Warning);
    }

    void dynamoAlsoSetsTheShapeLogs() {
        // PyTorch registers dynamo as torch._dynamo plus the dynamic-shapes loggers.
        TorchLogs logs = parsed("+dynamo");
        QCOMPARE(logs.requestedLevel(LogGroup::Dynamic), LogLevel::Debug);
        QVERIFY(logs.enabled("torch.fx.experimental.symbolic_shapes", LogLevel::Debug));
        QCOMPARE(parsed("dynamic").requestedLevel(LogGroup::Dynamo), LogLevel::NotSet);
    }

    void laterNamesWin() {
        QCOMPARE(parsed("+dynamo,dynamo").requestedLevel(LogGroup::Dynamo), LogLevel::Info);
        QCOMPARE(parsed("dynamic,+dynamo").requestedLevel(LogGroup::Dynamic), LogLevel::Debug);
        QCOMPARE(parsed("+dynamo,dynamic").requestedLevel(LogGroup::Dynamic), LogLevel::Info);
        QCOMPARE(parsed("+dynamo,dynamic").requestedLevel(LogGroup::Dynamo), LogLevel::Debug);
    }

    void allIsTheParentOfEveryLog() {
        TorchLogs logs = parsed("all");
        QCOMPARE(logs.requestedLevel(LogGroup::Torch), LogLevel::Info);
        QCOMPARE(logs.requestedLevel(LogGroup::Dynamo), LogLevel::NotSet);
        QCOMPARE(logs.effectiveLevel(LogGroup::Dynamo), LogLevel::Info);
        QCOMPARE(logs.effectiveLevel(LogGroup::Onnx), LogLevel::Info);
        QCOMPARE(parsed("torch").requestedLevel(LogGroup::Torch), LogLevel::Info);
        TorchLogs mixed = parsed("+all,-dynamo");
        QCOMPARE(mixed.effectiveLevel(LogGroup::Dynamo), LogLevel::Error);
        QCOMPARE(mixed.effectiveLevel(LogGroup::Dynamic), LogLevel::Error);
        QCOMPARE(mixed.effectiveLevel(LogGroup::Aot), LogLevel::Debug);
        QVERIFY(!mixed.artifactEnabled(Artifact::Recompiles));
        QVERIFY(mixed.artifactEnabled(Artifact::AotGraphs));
    }

    void artifactsAreSwitches() {
        TorchLogs logs = parsed("recompiles,graph_breaks");
        QVERIFY(logs.artifactRequested(Artifact::Recompiles));
        QVERIFY(logs.artifactEnabled(Artifact::Recompiles));
        QVERIFY(logs.artifactEnabled("graph_breaks"));
        QVERIFY(!logs.artifactEnabled(Artifact::Guards));
        QCOMPARE(logs.requestedLevel(LogGroup::Dynamo), LogLevel::NotSet);
        // A sign on an artifact is accepted and means nothing.
        QVERIFY(parsed("+output_code").artifactEnabled(Artifact::OutputCode));
        QVERIFY(parsed("-guards").artifactEnabled(Artifact::Guards));
    }

    void debugLevelTurnsOnTheArtifactsOfItsLog() {
        TorchLogs dynamo = parsed("+dynamo");
        for (Artifact a :
             {Artifact::Guards, Artifact::Recompiles, Artifact::GraphBreaks, Artifact::Graph,
              Artifact::GraphCode, Artifact::GraphSizes, Artifact::TraceSource, Artifact::TraceCall,
              Artifact::CompiledAutograd, Artifact::DdpGraphs})
            QVERIFY2(dynamo.artifactEnabled(a), kiln::artifactName(a).data());
        for (Artifact a : {Artifact::VerboseGuards, Artifact::Bytecode, Artifact::RecompilesVerbose,
                           Artifact::AotGraphs, Artifact::PostGradGraphs})
            QVERIFY2(!dynamo.artifactEnabled(a), kiln::artifactName(a).data());
        TorchLogs inductor = parsed("+inductor");
        QVERIFY(inductor.artifactEnabled(Artifact::PostGradGraphs));
        QVERIFY(inductor.artifactEnabled(Artifact::Cudagraphs));
        QVERIFY(!inductor.artifactEnabled(Artifact::Recompiles));
        // INFO is not enough for DEBUG records.
        QVERIFY(!parsed("dynamo").artifactEnabled(Artifact::Recompiles));
    }

    void offByDefaultArtifactsNeedTheirName() {
        TorchLogs all = parsed("+all");
        for (Artifact a :
             {Artifact::VerboseGuards, Artifact::Bytecode, Artifact::RecompilesVerbose,
              Artifact::OutputCode, Artifact::Schedule, Artifact::PerfHints,
              Artifact::OnnxDiagnostics, Artifact::Fusion, Artifact::Overlap, Artifact::KernelCode,
              Artifact::IrPreFusion, Artifact::IrPostFusion, Artifact::Autotuning}) {
            QVERIFY2(kiln::artifactInfo(a).offByDefault, kiln::artifactName(a).data());
            QVERIFY2(!all.artifactEnabled(a), kiln::artifactName(a).data());
            QVERIFY(!all.recordEnabled(LogGroup::Torch, a, LogLevel::Critical));
        }
        for (Artifact a : {Artifact::Guards, Artifact::NotImplemented, Artifact::AotJointGraph,
                           Artifact::Cudagraphs})
            QVERIFY2(all.artifactEnabled(a), kiln::artifactName(a).data());
        TorchLogs named = parsed("+inductor,output_code,fusion");
        QVERIFY(named.artifactEnabled(Artifact::OutputCode));
        QVERIFY(named.artifactEnabled(Artifact::Fusion));
        QVERIFY(!named.artifactEnabled(Artifact::Schedule));
    }

    void recordRules() {
        // Observed with PyTorch: TORCH_LOGS=dynamo shows an INFO record of recompiles, not a
        // DEBUG one; TORCH_LOGS=aot shows aot_graphs at INFO.
        TorchLogs dynamo = parsed("dynamo");
        QVERIFY(dynamo.recordEnabled(LogGroup::Dynamo, Artifact::Recompiles, LogLevel::Info));
        QVERIFY(!dynamo.recordEnabled(LogGroup::Dynamo, Artifact::Recompiles, LogLevel::Debug));
        QVERIFY(parsed("aot").recordEnabled(LogGroup::Aot, Artifact::AotGraphs, LogLevel::Info));
        // A named artifact shows at every level even when its log is at ERROR.
        TorchLogs quiet = parsed("-dynamo,recompiles");
        QVERIFY(quiet.recordEnabled(LogGroup::Dynamo, Artifact::Recompiles, LogLevel::Debug));
        QVERIFY(!quiet.enabled(LogGroup::Dynamo, LogLevel::Warning));
        QVERIFY(quiet.enabled(LogGroup::Dynamo, LogLevel::Error));
        QVERIFY(quiet.enabled(LogGroup::Inductor, LogLevel::Warning));
        QVERIFY(!quiet.enabled(LogGroup::Inductor, LogLevel::Info));
        QVERIFY(parsed("").enabled("torch._inductor.graph", LogLevel::Critical));
    }

    void dynamoDistributedInheritsFromDynamo() {
        // torch._dynamo.backends.distributed is registered under `distributed` but lies below
        // torch._dynamo in Python's logger hierarchy.
        QVERIFY(parsed("+dynamo").artifactEnabled(Artifact::DdpGraphs));
        QVERIFY(parsed("+distributed").artifactEnabled(Artifact::DdpGraphs));
        QVERIFY(!parsed("-distributed,+dynamo").artifactEnabled(Artifact::DdpGraphs));
        QCOMPARE(parsed("+distributed").effectiveLevel(LogGroup::Dynamo), LogLevel::Warning);
    }

    void loggerNamesFindTheirGroup() {
        QCOMPARE(kiln::findLogGroup("torch._dynamo.guards").value(), LogGroup::Dynamo);
        QCOMPARE(kiln::findLogGroup("torch._dynamo.backends.distributed").value(),
                 LogGroup::DynamoDistributed);
        QCOMPARE(kiln::findLogGroup("torch._dynamo_extra").value(), LogGroup::Torch);
        QCOMPARE(kiln::findLogGroup("torch.fx.experimental.sym_node").value(), LogGroup::Dynamic);
        QCOMPARE(kiln::findLogGroup("all").value(), LogGroup::Torch);
        QCOMPARE(kiln::findLogGroup("distributed").value(), LogGroup::Distributed);
        QVERIFY(!kiln::findLogGroup("numpy").has_value());
        static_assert(kiln::loggerGroup("torch._inductor.scheduler") == LogGroup::Inductor);
    }

    void wholeLogModuleNames() {
        TorchLogs logs = parsed("+torch._dynamo,torch._inductor");
        QCOMPARE(logs.requestedLevel(LogGroup::Dynamo), LogLevel::Debug);
        QCOMPARE(logs.requestedLevel(LogGroup::Dynamic), LogLevel::NotSet);
        QCOMPARE(logs.requestedLevel(LogGroup::Inductor), LogLevel::Info);
        QCOMPARE(parseError("torch._dynamo.guards"), invalidText("torch._dynamo.guards"));
    }

    void whitespaceOnlyAfterCommas() {
        TorchLogs logs = parsed("dynamo,  recompiles,\tgraph_breaks");
        QCOMPARE(logs.requestedLevel(LogGroup::Dynamo), LogLevel::Info);
        QVERIFY(logs.artifactEnabled(Artifact::GraphBreaks));
        QCOMPARE(parseError("dynamo ,recompiles"), invalidText("dynamo ,recompiles"));
        QCOMPARE(parseError(" dynamo"), invalidText(" dynamo"));
        QCOMPARE(parseError("dynamo,"), invalidText("dynamo,"));
        QCOMPARE(parseError("+-dynamo"), invalidText("+-dynamo"));
        QCOMPARE(parseError("dyn-amo"), invalidText("dyn-amo"));
    }

    void unknownNameIsPyTorchsValueError() {
        QCOMPARE(parseError("bogus"), invalidText("bogus"));
        // PyTorch reports the list with its whitespace removed once the syntax was fine.
        QCOMPARE(parseError("dynamo, bogus"), invalidText("dynamo,bogus"));
        QCOMPARE(parseError("+all,aot_graphs_effects"), invalidText("+all,aot_graphs_effects"));
    }

    void helpIsTheHelpText() {
        std::string help = parseError("help");
        QVERIFY(
            help.starts_with("ValueError: \nTORCH_LOGS Info\n\nExamples:\n  TORCH_LOGS=\"+dynamo,"
                             "aot\" will set the log level of TorchDynamo to\n"));
        QVERIFY(help.ends_with(
            "\n\nVisible registered names (use TORCH_LOGS='+help' for full list)\n  all\n  aot\n"
            "  distributed\n  dynamic\n  dynamo\n  inductor\n  onnx\n  torch\n"
            "  aot_graphs                    \tPrints the FX forward and backward graph generated "
            "by AOTDispatch, after partitioning. Useful to understand what's being given to "
            "Inductor\n"
            "  compiled_autograd             \tPrints various logs in compiled_autograd, "
            "including but not limited to the graphs. Useful for debugging compiled_autograd.\n"
            "  graph_breaks                  \tPrints whenever Dynamo decides that it needs to "
            "graph break (i.e. create a new graph). Useful for debugging why torch.compile has "
            "poor performance\n"
            "  guards                        \tThis prints the guards for every compiled Dynamo "
            "frame. It does not tell you where the guards come from.\n"
            "  kernel_code                   \tPrints the code that Inductor generates (on a "
            "per-kernel basis)\n"
            "  output_code                   \tPrints the code that Inductor generates (either "
            "Triton or C++)\n"
            "  recompiles                    \tPrints the reason why we recompiled a graph. "
            "Very, very useful.\n"
            "  recompiles_verbose            \tPrints all guard checks that fail during a "
            "recompilation. At runtime, Dynamo will stop at the first failed check for each "
            "failing guard. So not all logged failing checks are actually ran by Dynamo.\n"));
        QVERIFY(help.find("  TORCH_LOGS_OUT=/tmp/output.txt will output the logs to "
                          "/tmp/output.txt as\n  well. This is useful when the output is long.\n"
                          "\n\nVisible") != std::string::npos);
        QVERIFY(help.find("bytecode") == std::string::npos);
        std::string verbose = parseError("+help");
        QVERIFY(verbose.find("\n\nAll registered names\n  all\n  aot\n") != std::string::npos);
        QVERIFY(verbose.find("\n  bytecode                      \tPrints the original and "
                             "modified bytecode from Dynamo.") != std::string::npos);
        QVERIFY(verbose.find("\n  perf_hints                    \t\n") != std::string::npos);
        QCOMPARE(verbose, "ValueError: " + TorchLogs::helpMessage(true));
    }

    void environment() {
        kiln::LogEnvironment env;
        env.logs = "recompiles";
        env.out = "/tmp/torch_logs.txt";
        kiln::Expected<TorchLogs> logs = TorchLogs::fromEnvironment(env);
        QVERIFY(logs.ok());
        QVERIFY(logs->fromEnvironment());
        QVERIFY(logs->artifactEnabled(Artifact::Recompiles));
        QCOMPARE(*logs->ignoredOutFile(), std::string("/tmp/torch_logs.txt"));
        QVERIFY(logs->format().isGlog());
        QVERIFY(!TorchLogs::fromEnvironment({}).value().fromEnvironment());
        // PyTorch builds its formatter before reading TORCH_LOGS: a bad format fails first.
        env.logs = "bogus";
        env.format = "hello";
        kiln::Expected<TorchLogs> bad = TorchLogs::fromEnvironment(env);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().message, std::string("Invalid format 'hello' for '%' style"));
        env.format = "short";
        QCOMPARE(TorchLogs::fromEnvironment(env).error().message, invalidText("bogus").substr(12));
    }

    void replaceSettingsKeepsFormatAndEnvironment() {
        kiln::LogEnvironment env;
        env.format = "%(message)s";
        TorchLogs logs = TorchLogs::fromEnvironment(env).value();
        TorchLogs other = parsed("+dynamo,output_code");
        logs.replaceSettings(other);
        QVERIFY(!logs.format().isGlog());
        QCOMPARE(logs.requestedLevel(LogGroup::Dynamo), LogLevel::Debug);
        QVERIFY(logs.artifactEnabled(Artifact::OutputCode));
        logs.replaceSettings(parsed("graph_breaks"));
        QVERIFY(!logs.artifactEnabled(Artifact::OutputCode));
        QCOMPARE(logs.effectiveLevel(LogGroup::Dynamo), LogLevel::Warning);
    }

    void levelNames() {
        QCOMPARE(kiln::logLevelName(LogLevel::Warning), std::string_view("WARNING"));
        QCOMPARE(kiln::logLevelFromNumber(40).value(), LogLevel::Error);
        QVERIFY(!kiln::logLevelFromNumber(15).has_value());
        QCOMPARE(kiln::findArtifact("recompiles_verbose").value(), Artifact::RecompilesVerbose);
        QVERIFY(!kiln::findArtifact("side_effects").has_value());
    }
};

QTEST_APPLESS_MAIN(TorchLogsTest)
#include "tst_torch_logs.moc"
