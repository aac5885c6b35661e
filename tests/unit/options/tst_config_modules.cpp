// SPDX-License-Identifier: MIT
// torch._inductor, torch._inductor.config and torch._dynamo.config in an interpreter: what
// scripts see where PyTorch 2.3 and the installed PyTorch differ (so no golden script can
// record it), the values the capture layer reads from C++ and their sources, and the
// torch.compile(mode=, options=) checks raised as Python errors.
#include "capture/compile_options.h"
#include "lang/parser.h"
#include "snippet_runner.h"
#include "torchapi/config_modules.h"
#include "torchapi/install.h"

#include <QtTest>
#include <cstdlib>
#include <memory>

using namespace kiln;
using namespace kiln::lang;

namespace {

/// An interpreter with torch installed that runs snippets as __main__.
class Script : public kiln::testing::TorchSnippets {
public:
    /// The error inductorCompilePatch raises for the script values `mode` and `options`.
    QString patchError(const std::string& mode, const std::string& options) {
        std::string error = run("m = " + mode + "\no = " + options);
        if (!error.empty()) return QString::fromStdString(error);
        try {
            capture::inductorCompilePatch(interp, torchapi::inductorConfig(interp), global("m"),
                                          global("o"));
        } catch (PyException& e) {
            return QString::fromStdString(formatExceptionOnly(interp, e.exception));
        }
        return {};
    }
};

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

class ConfigModulesTest : public QObject {
    Q_OBJECT

private slots:
    void pytorch23Values() {
        Script s;
        // 2.3 returns the modes without coordinate descent (and without 2.11's "lite").
        QCOMPARE(s.print("torch._inductor.list_mode_options()"),
                 "{'default': {}, 'reduce-overhead': {'triton.cudagraphs': True}, "
                 "'max-autotune-no-cudagraphs': {'max_autotune': True}, 'max-autotune': "
                 "{'max_autotune': True, 'triton.cudagraphs': True}}");
        QCOMPARE(s.print("torch._inductor.list_mode_options('max-autotune')"),
                 "{'max_autotune': True, 'triton.cudagraphs': True}");
        QCOMPARE(s.print("torch._inductor.list_mode_options('max-autotune-no-cudagraphs')"),
                 "{'max_autotune': True}");
        QCOMPARE(q(s.run("torch._inductor.list_mode_options('lite')")), "KeyError: 'lite'");
        QCOMPARE(q(s.run("torch._inductor.list_mode_options(['x'])")),
                 "TypeError: unhashable type: 'list'");
        QCOMPARE(s.print("torch._dynamo.config.cache_size_limit"), "64");
        QCOMPARE(s.print("torch._dynamo.config.accumulated_cache_size_limit"), "64");
        QCOMPARE(s.print("torch._inductor.config.fx_graph_cache"), "False");
        QCOMPARE(s.print("repr(torch._inductor.config.max_autotune_gemm_backends)"),
                 "'ATEN,TRITON'");
        QCOMPARE(s.print("torch._inductor.config.triton.max_tiles"), "2");
        QCOMPARE(s.print("type(torch._inductor.config.triton).__name__"), "SubConfigProxy");
    }

    void listOptions() {
        Script s;
        QCOMPARE(q(s.run("keys = torch._inductor.list_options()")), QString());
        Value keys = s.global("keys");
        QVERIFY(keys.is(ObjectKind::List));
        std::vector<std::string> expected = inductorOptionRegistry().keys();
        const auto& items = keys.as<ListObject>()->items;
        QCOMPARE(items.size(), expected.size());
        for (size_t i = 0; i < items.size(); ++i)
            QCOMPARE(q(items[i].as<StrObject>()->str()), q(expected[i]));
        QCOMPARE(q(s.run("torch._inductor.list_options(1)")),
                 "TypeError: list_options() takes 0 positional arguments but 1 was given");
        QCOMPARE(s.print("len(torch._inductor.config.shallow_copy_dict())"),
                 QString::number(expected.size()));
    }

    void unknownNames() {
        Script s;
        QCOMPARE(s.print("hasattr(torch._inductor.config, 'nope')"), "False");
        QVERIFY(s.run("torch._inductor.config.triton.nope").starts_with("AttributeError: "));
        QVERIFY(s.run("torch._inductor.config.trace.nope = 1").starts_with("AttributeError: "));
        QVERIFY(s.run("torch._dynamo.config.nope").starts_with("AttributeError: "));
        // A group only has its own options.
        QCOMPARE(s.print("hasattr(torch._inductor.config.triton, 'enabled')"), "False");
    }

    void scriptAssignmentsReachCpp() {
        Script s;
        const OptionValues& before = torchapi::inductorConfig(s.interp);
        QCOMPARE(before.source("max_autotune"), OptionSource::Default);
        QCOMPARE(q(s.run("import torch._inductor.config as cfg\n"
                         "cfg.max_autotune = True\n"
                         "cfg.trace.enabled = True\n"
                         "cfg.max_fusion_size = 'many'\n"
                         "torch._dynamo.config.cache_size_limit = 8\n"
                         "torch._dynamo.config.suppress_errors = 1\n")),
                 QString());
        const OptionValues& ind = torchapi::inductorConfig(s.interp);
        QVERIFY(ind.flag("max_autotune"));
        QCOMPARE(ind.source("max_autotune"), OptionSource::User);
        QVERIFY(ind.flag("trace.enabled"));
        QCOMPARE(ind.source("trace.enabled"), OptionSource::User);
        QCOMPARE(q(pythonRepr(ind.value("max_fusion_size"))), "'many'");
        QCOMPARE(ind.integer("max_fusion_size"), std::optional<int64_t>());
        QCOMPARE(ind.source("fallback_random"), OptionSource::Default);
        const OptionValues& dyn = torchapi::dynamoConfig(s.interp);
        QCOMPARE(dyn.integer("cache_size_limit"), std::optional<int64_t>(8));
        QCOMPARE(dyn.source("cache_size_limit"), OptionSource::User);
        QCOMPARE(q(pythonRepr(dyn.value("suppress_errors"))), "1");
        QVERIFY(dyn.flag("suppress_errors"));
        QCOMPARE(q(s.run("torch._inductor.config.max_autotune = False")), QString());
        QVERIFY(!torchapi::inductorConfig(s.interp).flag("max_autotune"));
    }

    void otherValues() {
        Script s;
        QCOMPARE(q(s.run("torch._inductor.config.triton.descriptive_names = (1, 2)")), QString());
        const OptionValue& v = torchapi::inductorConfig(s.interp).value("triton.descriptive_names");
        QCOMPARE(q(pythonTypeName(v)), "tuple");
        QCOMPARE(q(pythonRepr(v)), "(1, 2)");
        QCOMPARE(s.print("torch._inductor.config.triton.descriptive_names"), "(1, 2)");
        QCOMPARE(q(s.run("torch._inductor.config.trace.debug_dir = ['a', 'b']")), QString());
        QCOMPARE(q(pythonRepr(torchapi::inductorConfig(s.interp).value("trace.debug_dir"))),
                 "['a', 'b']");
    }

    void kilnSetsOptions() {
        Script s;
        torchapi::setConfigOption(s.interp, inductorOptionRegistry(), "triton.cudagraphs", true,
                                  OptionSource::Env);
        torchapi::setConfigOption(s.interp, inductorOptionRegistry(), "max_autotune", true,
                                  OptionSource::Env);
        torchapi::setConfigOption(s.interp, dynamoOptionRegistry(), "cache_size_limit", int64_t(3),
                                  OptionSource::User);
        QCOMPARE(s.print("torch._inductor.config.triton.cudagraphs"), "True");
        QCOMPARE(s.print("torch._inductor.config.max_autotune"), "True");
        QCOMPARE(s.print("torch._dynamo.config.cache_size_limit"), "3");
        const OptionValues& v = torchapi::inductorConfig(s.interp);
        QCOMPARE(v.source("max_autotune"), OptionSource::Env);
        QCOMPARE(v.source("triton.cudagraphs"), OptionSource::Env);
    }

    void environment() {
        qputenv("TORCHINDUCTOR_MAX_AUTOTUNE", "1");
        qputenv("TORCHDYNAMO_SUPPRESS_ERRORS", "0");
        qputenv("TORCHINDUCTOR_COMPILE_THREADS", "many");
        Script s;
        QCOMPARE(q(s.run("pass")), QString()); // the environment is read on import, as in PyTorch
        qunsetenv("TORCHINDUCTOR_MAX_AUTOTUNE");
        qunsetenv("TORCHDYNAMO_SUPPRESS_ERRORS");
        qunsetenv("TORCHINDUCTOR_COMPILE_THREADS");
        QCOMPARE(s.print("torch._inductor.config.max_autotune"), "True");
        QCOMPARE(s.print("torch._dynamo.config.suppress_errors"), "True");
        QCOMPARE(torchapi::inductorConfig(s.interp).source("max_autotune"), OptionSource::Env);
        QCOMPARE(torchapi::dynamoConfig(s.interp).source("suppress_errors"), OptionSource::Env);
        QCOMPARE(q(s.sink.err), "kiln: ignored ValueError: TORCHINDUCTOR_COMPILE_THREADS: invalid "
                                "literal for int() with base 10: 'many'\n");
    }

    void compileChecks() {
        Script s;
        QCOMPARE(s.patchError("None", "None"), QString());
        QCOMPARE(s.patchError("'max-autotune'", "None"), QString());
        QCOMPARE(s.patchError("None", "{}"), QString());
        QCOMPARE(s.patchError("None", "{'max-autotune': True, 'trace.enabled': True}"), QString());
        QCOMPARE(s.patchError("'default'", "{}"),
                 "RuntimeError: Either mode or options can be specified, but both can't be "
                 "specified at the same time.");
        QCOMPARE(s.patchError("'fast'", "None"),
                 "RuntimeError: Unrecognized mode=fast, should be one of: default, "
                 "reduce-overhead, max-autotune, max-autotune-no-cudagraphs");
        QCOMPARE(s.patchError("3", "None"),
                 "RuntimeError: Unrecognized mode=3, should be one of: default, "
                 "reduce-overhead, max-autotune, max-autotune-no-cudagraphs");
        QCOMPARE(s.patchError("None", "{'max_autotune': 1}"),
                 "RuntimeError: Unexpected type of attr max_autotune, got int should be bool");
        QVERIFY(s.patchError("None", "{'nope': 1}")
                    .startsWith("RuntimeError: Unexpected optimization option nope, known "
                                "options are ['debug', "));
        QCOMPARE(s.patchError("None", "[1]"),
                 "AttributeError: 'list' object has no attribute 'items'");
        QCOMPARE(s.patchError("None", "{1: True}"),
                 "AttributeError: 'int' object has no attribute 'replace'");
        QVERIFY(s.patchError("None", "{'nope': 1, 1: True}")
                    .startsWith("RuntimeError: Unexpected optimization option nope"));
        QCOMPARE(s.patchError("None", "{'trace.debug_dir': '/tmp/x'}"),
                 "RuntimeError: Unexpected type of attr trace.debug_dir, got str should be "
                 "NoneType");
        // The type check reads the current value: after a script assignment of an int, True
        // is refused (2.3 compares type(val) with type(current value)).
        QCOMPARE(q(s.run("torch._inductor.config.max_autotune = 0")), QString());
        QCOMPARE(s.patchError("'max-autotune'", "None"),
                 "RuntimeError: Unexpected type of attr max_autotune, got bool should be int");
    }

    void effectiveConfiguration() {
        Script s;
        QCOMPARE(q(s.run("torch._inductor.config.fallback_random = True\n"
                         "m = 'reduce-overhead'\n")),
                 QString());
        OptionPatch patch = capture::inductorCompilePatch(
            s.interp, torchapi::inductorConfig(s.interp), s.global("m"), Value::none());
        OptionValues effective = applyPatch(torchapi::inductorConfig(s.interp), patch);
        QCOMPARE(effective.source("triton.cudagraphs"), OptionSource::Mode);
        QCOMPARE(effective.source("fallback_random"), OptionSource::User);
        QCOMPARE(effective.source("max_autotune"), OptionSource::Default);
        // The global configuration is not changed by a compile's patch.
        QCOMPARE(s.print("torch._inductor.config.triton.cudagraphs"), "False");
    }
};

QTEST_APPLESS_MAIN(ConfigModulesTest)
#include "tst_config_modules.moc"
