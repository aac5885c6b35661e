// SPDX-License-Identifier: MIT
// The declared option registry against PyTorch 2.3 (reference §2, §3, §5.4, §7, checked in the
// 2.3.0 release's config.py): contents, defaults and environment overrides; the modes; every
// validation message of torch.compile; the effective configuration of a compile with sources.
#include "support/options.h"

#include <QtTest>
#include <map>

using namespace kiln;

namespace {

EnvLookup fakeEnv(std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](const char* name) -> std::optional<std::string> {
        auto it = vars.find(name);
        return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
}

QString repr(const OptionValues& values, const char* key) {
    return QString::fromStdString(pythonRepr(values.value(key)));
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

/// The failure message of a patch request, or "" when it succeeds.
QString patchError(const OptionValues& current, CompileOptionsRequest request) {
    Expected<OptionPatch> patch = inductorCompilePatch(current, request);
    if (patch.ok()) return {};
    return q(patch.error().kind + ": " + patch.error().message);
}

} // namespace

class OptionsTest : public QObject {
    Q_OBJECT

private slots:
    void pythonValues() {
        QCOMPARE(q(pythonRepr(std::monostate{})), "None");
        QCOMPARE(q(pythonRepr(true)), "True");
        QCOMPARE(q(pythonRepr(int64_t(-64))), "-64");
        QCOMPARE(q(pythonRepr(0.5)), "0.5");
        QCOMPARE(q(pythonRepr(123.0)), "123.0");
        QCOMPARE(q(pythonRepr(1e-4)), "0.0001");
        QCOMPARE(q(pythonRepr(1e-5)), "1e-05");
        QCOMPARE(q(pythonRepr(1e16)), "1e+16");
        QCOMPARE(q(pythonRepr(1.5e16)), "1.5e+16");
        QCOMPARE(q(pythonRepr(1e15)), "1000000000000000.0");
        QCOMPARE(q(pythonRepr(std::string("ATEN,TRITON"))), "'ATEN,TRITON'");
        QCOMPARE(q(pythonRepr(std::string("it's"))), "\"it's\"");
        QCOMPARE(q(pythonRepr(std::string("a'b\"\n"))), "'a\\'b\"\\n'");
        QCOMPARE(q(pythonRepr(std::vector<std::string>{"a", "b"})), "['a', 'b']");
        QCOMPARE(q(pythonTypeName(std::monostate{})), "NoneType");
        QCOMPARE(q(pythonTypeName(int64_t(1))), "int");
        QCOMPARE(q(pythonTypeName(OtherValue{"tuple", "(1,)", true})), "tuple");
        QVERIFY(!pythonTruth(std::string()));
        QVERIFY(pythonTruth(std::string("0")));
        QVERIFY(!pythonTruth(0.0));
        QVERIFY(valueFitsType(OptionType::OptionalStr, std::monostate{}));
        QVERIFY(!valueFitsType(OptionType::Int, true)); // bool is not taken for int
    }

    void inductorDeclarationOrder() {
        std::vector<std::string> keys = inductorOptionRegistry().keys();
        const std::vector<std::string> head = {"debug", "debug_check_inf_and_nan", "fx_graph_cache",
                                               "cpp_wrapper", "dce"};
        QVERIFY(std::equal(head.begin(), head.end(), keys.begin()));
        auto pos = [&](const char* k) { return std::find(keys.begin(), keys.end(), k); };
        QVERIFY(pos("epilogue_fusion") < pos("max_autotune"));
        QVERIFY(pos("max_autotune") < pos("max_autotune_gemm_backends"));
        QVERIFY(pos("shape_padding") < pos("triton.cudagraphs"));
        QVERIFY(pos("triton.use_block_ptr") < pos("trace.enabled"));
        QCOMPARE(q(keys.back()), "trace.log_autotuning_results");
        std::vector<std::string> groups = inductorOptionRegistry().groups();
        QCOMPARE(groups.size(), size_t(2));
        QCOMPARE(q(groups[0]), "triton");
        QCOMPARE(q(groups[1]), "trace");
        const OptionDecl& d = inductorOptionRegistry().get("triton.cudagraphs");
        QCOMPARE(q(std::string(d.group())), "triton");
        QCOMPARE(q(std::string(d.attribute())), "cudagraphs");
        for (const OptionDecl& o : inductorOptionRegistry().decls())
            QVERIFY2(!o.description.empty(), o.name.c_str());
    }

    void inductorDefaults_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("env");
        QTest::addColumn<QString>("type");
        const char* rows[][4] = {
            // reference §3.1: the options of the torch.compile docstring
            {"epilogue_fusion", "True", "", "bool"},
            {"max_autotune", "False", "TORCHINDUCTOR_MAX_AUTOTUNE", "bool"},
            {"fallback_random", "False", "", "bool"},
            {"shape_padding", "True", "TORCHINDUCTOR_SHAPE_PADDING", "bool"},
            {"triton.cudagraphs", "False", "", "bool"},
            {"trace.enabled", "False", "TORCH_COMPILE_DEBUG", "bool"},
            {"trace.graph_diagram", "False", "INDUCTOR_POST_FUSION_SVG", "bool"},
            // §3.2
            {"max_autotune_pointwise", "False", "TORCHINDUCTOR_MAX_AUTOTUNE_POINTWISE", "bool"},
            {"max_autotune_gemm", "False", "TORCHINDUCTOR_MAX_AUTOTUNE_GEMM", "bool"},
            {"max_autotune_gemm_backends", "'ATEN,TRITON'",
             "TORCHINDUCTOR_MAX_AUTOTUNE_GEMM_BACKENDS", "str"},
            {"coordinate_descent_tuning", "False", "TORCHINDUCTOR_COORDINATE_DESCENT_TUNING",
             "bool"},
            {"coordinate_descent_check_all_directions", "False",
             "TORCHINDUCTOR_COORDINATE_DESCENT_CHECK_ALL_DIRECTIONS", "bool"},
            {"coordinate_descent_search_radius", "1", "TORCHINDUCTOR_COORDINATE_DESCENT_RADIUS",
             "int"},
            {"debug", "False", "", "bool"},
            {"debug_check_inf_and_nan", "False", "", "bool"},
            {"size_asserts", "True", "TORCHINDUCTOR_SIZE_ASSERTS", "bool"},
            {"nan_asserts", "False", "TORCHINDUCTOR_NAN_ASSERTS", "bool"},
            {"fx_graph_cache", "False", "TORCHINDUCTOR_FX_GRAPH_CACHE", "bool"},
            {"use_autotune_local_cache", "True", "", "bool"},
            {"cpp_wrapper", "False", "TORCHINDUCTOR_CPP_WRAPPER", "bool"},
            {"dce", "False", "", "bool"},
            {"static_weight_shapes", "True", "", "bool"},
            {"pick_loop_orders", "True", "", "bool"},
            {"inplace_buffers", "True", "", "bool"},
            {"allow_buffer_reuse", "True", "", "bool"},
            {"memory_planning", "False", "TORCHINDUCTOR_MEMORY_PLANNING", "bool"},
            {"benchmark_harness", "True", "", "bool"},
            {"pattern_matcher", "True", "", "bool"},
            {"freezing", "False", "TORCHINDUCTOR_FREEZING", "bool"},
            {"implicit_fallbacks", "True", "", "bool"},
            {"aggressive_fusion", "False", "", "bool"},
            {"max_fusion_size", "64", "", "int"},
            {"unroll_reductions_threshold", "8", "", "int"},
            {"split_reductions", "True", "", "bool"},
            {"layout_optimization", "True", "TORCHINDUCTOR_LAYOUT_OPTIMIZATION", "bool"},
            {"keep_output_stride", "True", "TORCHINDUCTOR_KEEP_OUTPUT_STRIDE", "bool"},
            {"realize_reads_threshold", "4", "", "int"},
            {"realize_opcount_threshold", "30", "", "int"},
            {"worker_start_method", "'fork'", "", "str"},
            {"triton.cudagraph_trees", "True", "", "bool"},
            {"triton.unique_kernel_names", "False", "TORCHINDUCTOR_UNIQUE_KERNEL_NAMES", "bool"},
            {"triton.descriptive_names", "'original_aten'", "", "str"},
            {"triton.persistent_reductions", "True", "TORCHINDUCTOR_PERSISTENT_REDUCTIONS", "bool"},
            {"triton.max_tiles", "2", "", "int"},
            {"triton.autotune_pointwise", "True", "", "bool"},
            {"triton.use_block_ptr", "False", "", "bool"},
            {"triton.multi_kernel", "0", "TORCHINDUCTOR_MULTI_KERNEL", "int"},
            {"triton.debug_sync_graph", "False", "", "bool"},
            {"triton.debug_sync_kernel", "False", "", "bool"},
            {"trace.debug_dir", "None", "", "Optional[str]"},
            {"trace.debug_log", "False", "", "bool"},
            {"trace.info_log", "False", "", "bool"},
            {"trace.fx_graph", "True", "", "bool"},
            {"trace.fx_graph_transformed", "True", "", "bool"},
            {"trace.ir_pre_fusion", "True", "", "bool"},
            {"trace.ir_post_fusion", "True", "", "bool"},
            {"trace.output_code", "True", "", "bool"},
            {"trace.draw_orig_fx_graph", "False", "INDUCTOR_ORIG_FX_SVG", "bool"},
            {"trace.dot_graph_shape", "None", "INDUCTOR_DOT_GRAPH_SHAPE_SVG", "Optional[str]"},
            {"trace.compile_profile", "False", "", "bool"},
            {"trace.log_autotuning_results", "False", "", "bool"},
        };
        for (const auto& r : rows)
            QTest::newRow(r[0]) << r[0] << r[1] << r[2] << r[3];
    }

    void inductorDefaults() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, env);
        QFETCH(QString, type);
        const OptionDecl* d = inductorOptionRegistry().find(key.toStdString());
        QVERIFY(d);
        QCOMPARE(q(pythonRepr(d->defaultValue)), value);
        QCOMPARE(q(d->envVar), env);
        QCOMPARE(QString(optionTypeName(d->type)), type);
        QVERIFY(valueFitsType(d->type, d->defaultValue));
    }

    void computedDefaults() {
        const OptionValue& threads = inductorOptionRegistry().get("compile_threads").defaultValue;
        QVERIFY(std::get<int64_t>(threads) >= 1 && std::get<int64_t>(threads) <= 32);
        std::string root =
            std::get<std::string>(dynamoOptionRegistry().get("debug_dir_root").defaultValue);
        QVERIFY(root.ends_with("/torch_compile_debug"));
    }

    void dynamoDefaults() {
        OptionValues v(dynamoOptionRegistry());
        QCOMPARE(q(dynamoOptionRegistry().moduleName()), "torch._dynamo.config");
        QCOMPARE(repr(v, "cache_size_limit"), "64"); // the specification's value (2.3 used 8)
        QCOMPARE(repr(v, "accumulated_cache_size_limit"), "64");
        for (const char* f : {"suppress_errors", "capture_scalar_outputs", "specialize_int",
                              "capture_dynamic_output_shape_ops", "error_on_recompile", "verbose",
                              "allow_ignore_mark_dynamic", "disable", "guard_nn_modules"})
            QVERIFY2(!v.flag(f), f);
        for (const char* t :
             {"automatic_dynamic_shapes", "assume_static_by_default",
              "force_parameter_static_shapes", "force_nn_module_property_static_shapes",
              "guard_nn_modules_using_dict_tags"})
            QVERIFY2(v.flag(t), t);
        QCOMPARE(q(dynamoOptionRegistry().get("suppress_errors").envVar),
                 "TORCHDYNAMO_SUPPRESS_ERRORS");
        QCOMPARE(q(dynamoOptionRegistry().keys().front()), "verbose");
        QCOMPARE(v.source("cache_size_limit"), OptionSource::Default);
    }

    void environmentOverrides() {
        std::vector<Diagnostic> problems;
        OptionValues v = OptionValues::fromEnvironment(
            inductorOptionRegistry(),
            fakeEnv({{"TORCHINDUCTOR_MAX_AUTOTUNE", "1"},
                     {"TORCHINDUCTOR_SIZE_ASSERTS", "0"},
                     {"TORCHINDUCTOR_SHAPE_PADDING", "yes"}, // only "1" is true
                     {"TORCHINDUCTOR_MAX_AUTOTUNE_GEMM_BACKENDS", "aten,cutlass"},
                     {"TORCHINDUCTOR_COMPILE_THREADS", " 1_6 "},
                     {"TORCHINDUCTOR_COORDINATE_DESCENT_RADIUS", "two"},
                     {"TORCH_COMPILE_DEBUG", "1"},
                     {"INDUCTOR_DOT_GRAPH_SHAPE_SVG", "none"}}),
            &problems);
        QCOMPARE(repr(v, "max_autotune"), "True");
        QCOMPARE(v.source("max_autotune"), OptionSource::Env);
        QCOMPARE(repr(v, "size_asserts"), "False");
        QCOMPARE(repr(v, "shape_padding"), "False");
        QCOMPARE(repr(v, "max_autotune_gemm_backends"), "'ATEN,CUTLASS'");
        QCOMPARE(v.integer("compile_threads"), std::optional<int64_t>(16));
        QCOMPARE(repr(v, "coordinate_descent_search_radius"), "1");
        QCOMPARE(v.source("coordinate_descent_search_radius"), OptionSource::Default);
        QCOMPARE(problems.size(), size_t(1));
        QCOMPARE(q(problems[0].kind), "ValueError");
        QCOMPARE(q(problems[0].message), "TORCHINDUCTOR_COORDINATE_DESCENT_RADIUS: invalid literal "
                                         "for int() with base 10: 'two'");
        QVERIFY(v.flag("trace.enabled"));
        QCOMPARE(v.text("trace.dot_graph_shape"), std::optional<std::string>("none"));
        QCOMPARE(v.source("fallback_random"), OptionSource::Default);
    }

    void dynamoEnvironment() {
        auto env = [](std::map<std::string, std::string> vars) {
            return OptionValues::fromEnvironment(dynamoOptionRegistry(), fakeEnv(std::move(vars)));
        };
        // bool(os.environ.get(...)): any text but the empty one is true, "0" included.
        QCOMPARE(repr(env({{"TORCHDYNAMO_SUPPRESS_ERRORS", "0"}}), "suppress_errors"), "True");
        QCOMPARE(repr(env({{"TORCHDYNAMO_SUPPRESS_ERRORS", ""}}), "suppress_errors"), "False");
        QCOMPARE(repr(env({{"TORCH_COMPILE_DISABLE", "1"}}), "disable"), "'1'");
        QCOMPARE(repr(env({{"TORCHDYNAMO_VERBOSE", "1"}}), "verbose"), "True");
        QCOMPARE(repr(env({{"TORCH_COMPILE_DEBUG_DIR", "/tmp/d"}}), "debug_dir_root"),
                 "'/tmp/d/torch_compile_debug'");
        OptionValues none = env({});
        QCOMPARE(none.source("suppress_errors"), OptionSource::Default);
    }

    void modes() {
        std::span<const std::string_view> names = compileModeNames();
        QCOMPARE(names.size(), size_t(4));
        QCOMPARE(QString::fromLatin1(names[1].data(), names[1].size()), "reduce-overhead");
        QCOMPARE(QString::fromLatin1(names[3].data(), names[3].size()), "max-autotune");
        QVERIFY(modeOptions("default")->empty());
        OptionItems ro = *modeOptions("reduce-overhead");
        QCOMPARE(ro.size(), size_t(1));
        QCOMPARE(q(ro[0].first), "triton.cudagraphs");
        OptionItems ma = *modeOptions("max-autotune");
        QCOMPARE(ma.size(), size_t(2)); // no coordinate_descent_tuning in 2.3
        QCOMPARE(q(ma[0].first), "max_autotune");
        QCOMPARE(q(ma[1].first), "triton.cudagraphs");
        QCOMPARE(modeOptions("max-autotune-no-cudagraphs")->size(), size_t(1));
        QVERIFY(!modeOptions("lite"));
        QVERIFY(!modeOptions("Default"));
    }

    void validationMessages() {
        OptionValues current(inductorOptionRegistry());
        QCOMPARE(patchError(current, {"default", OptionItems{}}),
                 "RuntimeError: Either mode or options can be specified, but both can't be "
                 "specified at the same time.");
        QCOMPARE(patchError(current, {"fast", std::nullopt}),
                 "RuntimeError: Unrecognized mode=fast, should be one of: default, "
                 "reduce-overhead, max-autotune, max-autotune-no-cudagraphs");
        QCOMPARE(patchError(current, {std::nullopt, OptionItems{{"no-such", true}}}),
                 q("RuntimeError: Unexpected optimization option no-such, known options are " +
                   pythonRepr(inductorOptionRegistry().keys())));
        QVERIFY(patchError(current, {std::nullopt, OptionItems{{"foo", int64_t(1)}}})
                    .startsWith("RuntimeError: Unexpected optimization option foo, known "
                                "options are ['debug', 'debug_check_inf_and_nan', "));
        QCOMPARE(patchError(current, {std::nullopt, OptionItems{{"max-autotune", int64_t(1)}}}),
                 "RuntimeError: Unexpected type of attr max-autotune, got int should be bool");
        QCOMPARE(patchError(current,
                            {std::nullopt, OptionItems{{"trace.debug_dir", std::string("/x")}}}),
                 "RuntimeError: Unexpected type of attr trace.debug_dir, got str should be "
                 "NoneType");
        QCOMPARE(patchError(current,
                            {std::nullopt, OptionItems{{"coordinate_descent_search_radius", 2.0}}}),
                 "RuntimeError: Unexpected type of attr coordinate_descent_search_radius, got "
                 "float should be int");
        QCOMPARE(patchError(current,
                            {std::nullopt,
                             OptionItems{{"triton.cudagraphs", OtherValue{"tuple", "()", false}}}}),
                 "RuntimeError: Unexpected type of attr triton.cudagraphs, got tuple should be "
                 "bool");
        QCOMPARE(
            patchError(current, {std::nullopt, OptionItems{{"max_autotune", true}, {"bad", true}}}),
            q("RuntimeError: Unexpected optimization option bad, known options are " +
              pythonRepr(inductorOptionRegistry().keys())));
        QCOMPARE(q(checkModeOptionsExclusive(true, true).error().message),
                 "Either mode or options can be specified, but both can't be specified at the "
                 "same time.");
        QVERIFY(checkModeOptionsExclusive(true, false).ok());
        QCOMPARE(q(unrecognizedModeMessage("1")),
                 "Unrecognized mode=1, should be one of: default, reduce-overhead, max-autotune, "
                 "max-autotune-no-cudagraphs");
    }

    void typeCheckUsesCurrentValue() {
        // 2.3 compares with type(current value): after `config.max_autotune = 1` a mode that
        // sets it to True is refused.
        OptionValues current(inductorOptionRegistry());
        current.set("max_autotune", int64_t(1), OptionSource::User);
        QCOMPARE(patchError(current, {"max-autotune", std::nullopt}),
                 "RuntimeError: Unexpected type of attr max_autotune, got bool should be int");
        QCOMPARE(patchError(current, {"reduce-overhead", std::nullopt}), QString());
        current.set("trace.debug_dir", std::string("/a"), OptionSource::User);
        QCOMPARE(patchError(current,
                            {std::nullopt, OptionItems{{"trace.debug_dir", std::string("/b")}}}),
                 QString());
    }

    void patches() {
        OptionValues current(inductorOptionRegistry());
        Expected<OptionPatch> none = inductorCompilePatch(current, {});
        QVERIFY(none.ok() && none->empty());
        Expected<OptionPatch> empty = inductorCompilePatch(current, {std::nullopt, OptionItems{}});
        QVERIFY(empty.ok() && empty->empty());
        QVERIFY(inductorCompilePatch(current, {"default", std::nullopt})->empty());
        Expected<OptionPatch> mode = inductorCompilePatch(current, {"max-autotune", std::nullopt});
        QVERIFY(mode.ok());
        QCOMPARE(mode->size(), size_t(2));
        QCOMPARE(q(inductorOptionRegistry().at((*mode)[0].index).name), "max_autotune");
        QCOMPARE((*mode)[0].source, OptionSource::Mode);
        Expected<OptionPatch> twice = inductorCompilePatch(
            current, {std::nullopt, OptionItems{{"max-autotune", true},
                                                {"max_autotune", false},
                                                {"trace.graph_diagram", true}}});
        QVERIFY(twice.ok());
        QCOMPARE(twice->size(), size_t(2));
        QCOMPARE(q(pythonRepr((*twice)[0].value)), "False");
        QCOMPARE((*twice)[1].source, OptionSource::User);
    }

    void effectiveConfiguration() {
        OptionValues current = OptionValues::fromEnvironment(
            inductorOptionRegistry(), fakeEnv({{"TORCHINDUCTOR_FX_GRAPH_CACHE", "1"}}));
        current.set("fallback_random", true, OptionSource::User); // config.fallback_random = True
        current.set("triton.cudagraphs", false, OptionSource::User);
        OptionPatch patch =
            inductorCompilePatch(current, {"reduce-overhead", std::nullopt}).value();
        OptionValues effective = applyPatch(current, patch);
        QCOMPARE(effective.source("triton.cudagraphs"), OptionSource::Mode); // the mode wins
        QVERIFY(effective.flag("triton.cudagraphs"));
        QCOMPARE(effective.source("fallback_random"), OptionSource::User);
        QCOMPARE(effective.source("fx_graph_cache"), OptionSource::Env);
        QCOMPARE(effective.source("max_autotune"), OptionSource::Default);
        QCOMPARE(current.source("triton.cudagraphs"), OptionSource::User); // unchanged

        std::vector<ConfigEvent> events = configEvents(effective);
        QCOMPARE(events.size(), inductorOptionRegistry().size());
        QCOMPARE(q(events.front().key), "debug");
        auto find = [&](const char* key) {
            return *std::find_if(events.begin(), events.end(),
                                 [&](const ConfigEvent& e) { return e.key == key; });
        };
        ConfigEvent cg = find("triton.cudagraphs");
        QCOMPARE(q(cg.value), "True");
        QCOMPARE(q(cg.defaultValue), "False");
        QCOMPARE(q(cg.source), "mode");
        ConfigEvent gb = find("max_autotune_gemm_backends");
        QCOMPARE(q(gb.value), "'ATEN,TRITON'");
        QCOMPARE(q(gb.source), "default");
        QCOMPARE(q(find("fx_graph_cache").source), "env");
        QCOMPARE(q(find("fallback_random").source), "user");
        QCOMPARE(q(find("trace.debug_dir").value), "None");

        OptionPatch user =
            inductorCompilePatch(current, {std::nullopt, OptionItems{{"max_autotune", true}}})
                .value();
        QCOMPARE(applyPatch(current, user).source("max_autotune"), OptionSource::User);
    }

    void typedAccessors() {
        OptionValues v(inductorOptionRegistry());
        QCOMPARE(v.integer("max_fusion_size"), std::optional<int64_t>(64));
        QCOMPARE(v.text("worker_start_method"), std::optional<std::string>("fork"));
        QCOMPARE(v.text("trace.debug_dir"), std::optional<std::string>());
        v.set("max_fusion_size", std::string("many"), OptionSource::User);
        QCOMPARE(v.integer("max_fusion_size"), std::optional<int64_t>());
        v.set("max_autotune", std::string("yes"), OptionSource::User); // truthy, as in Python
        QVERIFY(v.flag("max_autotune"));
        QCOMPARE(OptionValues(inductorOptionRegistry()).size(), inductorOptionRegistry().size());
    }
};

QTEST_APPLESS_MAIN(OptionsTest)
#include "tst_options.moc"
