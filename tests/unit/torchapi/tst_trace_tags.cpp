// SPDX-License-Identifier: MIT
// The trace tags of the torch natives (torchapi/trace_tags.cpp): every native of torch,
// torch.nn.functional and Tensor carries one, except the few that are no tensor operation, and
// the tags the tracer relies on have the targets, kinds and reasons it puts in graphs and
// break reports.
#include "lang/capture_hooks.h"
#include "lang/parser.h"
#include "snippet_runner.h"
#include "torchapi/install.h"
#include "torchapi/trace_tags.h"

#include <QtTest>
#include <memory>
#include <set>

using namespace kiln;
using namespace kiln::lang;
using torchapi::TraceBreak;

namespace {

/// An interpreter that has run `import torch`, so every torch native exists and is tagged.
class Script : public kiln::testing::TorchSnippets {
public:
    Script() { run("import torch.nn.functional"); }

    AttrMap& module(const char* name) { return interp.importModule(name)->globals; }
};

const TraceInfo* traceOf(const Value* v) {
    if (!v || !v->is(ObjectKind::NativeFunction)) return nullptr;
    return v->as<NativeFunctionObject>()->trace.get();
}

const TraceInfo* traceIn(const AttrMap& names, const char* name) {
    return traceOf(names.find(Symbol::intern(name)));
}

const AttrMap& tensorDict() {
    return builtinTypes().tensor->dict;
}

/// The getter (or setter) of a Tensor property.
const TraceInfo* propertyTrace(const char* name, bool setter = false) {
    const Value* p = tensorDict().find(Symbol::intern(name));
    if (!p || !p->is(ObjectKind::Property)) return nullptr;
    auto* prop = p->as<PropertyObject>();
    return traceOf(setter ? &prop->setter : &prop->getter);
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

/// "where.name" for each native in `names` without a tag.
void collectUntagged(const AttrMap& names, const std::string& where,
                     std::vector<std::string>& out) {
    auto check = [&](const Value& v, const std::string& name) {
        if (v.is(ObjectKind::NativeFunction) && !v.as<NativeFunctionObject>()->trace)
            out.push_back(where + "." + name);
    };
    for (const AttrMap::Entry& e : names.entries()) {
        check(e.value, e.key.str());
        if (e.value.is(ObjectKind::Property)) {
            check(e.value.as<PropertyObject>()->getter, e.key.str() + ".getter");
            check(e.value.as<PropertyObject>()->setter, e.key.str() + ".setter");
        }
    }
}

} // namespace

class TraceTagsTest : public QObject {
    Q_OBJECT

private slots:
    void everyNativeTagged() {
        Script s;
        // No tensor operations: the grad-mode context factories (see kTorchUntagged).
        const std::set<std::string> allowed = {"torch.no_grad", "torch.enable_grad",
                                               "torch.set_grad_enabled", "torch.inference_mode"};
        std::vector<std::string> untagged;
        collectUntagged(s.module("torch"), "torch", untagged);
        collectUntagged(s.module("torch.nn.functional"), "F", untagged);
        collectUntagged(tensorDict(), "Tensor", untagged);
        std::string unexpected;
        for (const std::string& name : untagged)
            if (!allowed.contains(name)) unexpected += name + " ";
        QCOMPARE(q(unexpected), QString());
        for (const std::string& name : allowed)
            QVERIFY2(std::find(untagged.begin(), untagged.end(), name) != untagged.end(),
                     name.c_str());
    }

    void functionsAndMethodsDiffer() {
        Script s;
        const TraceInfo* fn = traceIn(s.module("torch"), "sin");
        QVERIFY(fn);
        QCOMPARE(fn->kind, TraceKind::Record);
        QCOMPARE(q(fn->target), "torch.sin");
        QVERIFY(!fn->method);
        QVERIFY(!fn->inPlace);
        const TraceInfo* method = traceIn(tensorDict(), "sin");
        QVERIFY(method);
        QCOMPARE(method->kind, TraceKind::Record);
        QCOMPARE(q(method->target), "sin");
        QVERIFY(method->method);
        // As in PyTorch, the function and the method are distinct objects.
        QCOMPARE(s.print("torch.sin is not torch.Tensor.sin"), "True");
        QCOMPARE(s.print("torch.sin is torch.sin, torch.Tensor.sin is torch.Tensor.sin"),
                 "True True");
        QCOMPARE(s.print("torch.sin(torch.tensor(0.0)).item(), torch.tensor(0.0).sin().item()"),
                 "0.0 0.0");
    }

    void functionalAndMatmul() {
        Script s;
        const TraceInfo* relu = traceIn(s.module("torch.nn.functional"), "relu");
        QVERIFY(relu);
        QCOMPARE(relu->kind, TraceKind::Record);
        QCOMPARE(q(relu->target), "torch.nn.functional.relu");
        QVERIFY(!relu->method);
        const TraceInfo* matmul = traceIn(s.module("torch"), "matmul");
        QVERIFY(matmul);
        QCOMPARE(q(matmul->target), "torch.matmul");
        QCOMPARE(q(traceIn(tensorDict(), "sum")->target), "sum");
        QCOMPARE(traceIn(s.module("torch"), "randn")->kind, TraceKind::Record);
        QCOMPARE(q(traceIn(s.module("torch.nn.functional"), "dropout")->target),
                 "torch.nn.functional.dropout");
    }

    void inPlace() {
        Script s;
        for (const char* name : {"add_", "mul_", "copy_", "zero_", "fill_", "clamp_", "relu_",
                                 "masked_fill_", "normal_", "uniform_", "addmm_"}) {
            const TraceInfo* t = traceIn(tensorDict(), name);
            QVERIFY2(t, name);
            QCOMPARE(t->kind, TraceKind::Record);
            QVERIFY2(t->inPlace, name);
            QVERIFY(t->method);
            QCOMPARE(q(t->target), q(name));
        }
        const TraceInfo* relu_ = traceIn(s.module("torch"), "relu_");
        QVERIFY(relu_ && relu_->inPlace && !relu_->method);
        QCOMPARE(q(relu_->target), "torch.relu_");
        QVERIFY(!traceIn(tensorDict(), "add")->inPlace);
    }

    void metadata() {
        Script s;
        for (const char* name : {"size", "dim", "numel", "stride", "is_contiguous", "__len__"})
            QCOMPARE(traceIn(tensorDict(), name)->kind, TraceKind::Metadata);
        for (const char* name : {"shape", "dtype", "device", "ndim", "requires_grad", "is_cuda"})
            QCOMPARE(propertyTrace(name)->kind, TraceKind::Metadata);
        for (const char* name : {"is_tensor", "numel", "is_grad_enabled", "get_default_dtype"})
            QCOMPARE(traceIn(s.module("torch"), name)->kind, TraceKind::Metadata);
        // One shared tag for all of them.
        QCOMPARE(traceIn(tensorDict(), "size"), traceIn(tensorDict(), "dim"));
    }

    void tensorValuedProperties() {
        Script s;
        for (const char* name : {"T", "mT", "grad", "data"}) {
            const TraceInfo* t = propertyTrace(name);
            QVERIFY2(t, name);
            QCOMPARE(t->kind, TraceKind::Record);
            QVERIFY(t->attribute); // recorded as getattr(x, name)
            QVERIFY(!t->method);
            QCOMPARE(q(t->target), q(name));
        }
        const TraceInfo* setRequiresGrad = propertyTrace("requires_grad", true);
        QVERIFY(setRequiresGrad);
        QCOMPARE(setRequiresGrad->kind, TraceKind::Break);
        QCOMPARE(setRequiresGrad->breakKind, uint8_t(TraceBreak::Unsupported));
    }

    void breaks() {
        Script s;
        const TraceInfo* item = traceIn(tensorDict(), "item");
        QVERIFY(item);
        QCOMPARE(item->kind, TraceKind::Break);
        QCOMPARE(q(item->reason), "Tensor.item");
        // The numbers of capture::BreakKind (engine/capture/break_reason.h).
        QCOMPARE(item->breakKind, uint8_t(1));
        QVERIFY(!item->always);
        QCOMPARE(q(traceIn(tensorDict(), "tolist")->reason), "Tensor.tolist");

        for (const TraceInfo* nonzero :
             {traceIn(s.module("torch"), "nonzero"), traceIn(tensorDict(), "nonzero")}) {
            QVERIFY(nonzero);
            QCOMPARE(nonzero->kind, TraceKind::Break);
            QCOMPARE(nonzero->breakKind, uint8_t(6));
            QCOMPARE(q(nonzero->reason), "dynamic shape operator: aten.nonzero.default");
        }
        QCOMPARE(q(traceIn(s.module("torch"), "masked_select")->reason),
                 "dynamic shape operator: aten.masked_select.default");

        const TraceInfo* equal = traceIn(s.module("torch"), "equal");
        QCOMPARE(equal->kind, TraceKind::Break);
        QCOMPARE(equal->breakKind, uint8_t(TraceBreak::ScalarConvert));
        QCOMPARE(traceIn(tensorDict(), "equal"), equal); // the same tag, shared
        QCOMPARE(traceIn(tensorDict(), "allclose")->kind, TraceKind::Break);

        const TraceInfo* seed = traceIn(s.module("torch"), "manual_seed");
        QVERIFY(seed);
        QCOMPARE(seed->kind, TraceKind::Break);
        QVERIFY(seed->always);
        QCOMPARE(seed->breakKind, uint8_t(7));
        QCOMPARE(q(seed->reason), "call_function torch.manual_seed (mutates global state)");
        QVERIFY(traceIn(s.module("torch"), "set_default_dtype")->always);
    }

    void retaggedPerInterpreter() {
        // Tensor's natives are process-wide and recreated by each installation of torch: the
        // latest ones carry tags too.
        Script first;
        const Value* before = tensorDict().find(Symbol::intern("sin"));
        QVERIFY(traceOf(before));
        Script second;
        const TraceInfo* after = traceIn(tensorDict(), "sin");
        QVERIFY(after);
        QCOMPARE(q(after->target), "sin");
        QCOMPARE(second.print("torch.ones(2).add_(1).sum().item()"), "4.0");
    }
};

QTEST_APPLESS_MAIN(TraceTagsTest)
#include "tst_trace_tags.moc"
