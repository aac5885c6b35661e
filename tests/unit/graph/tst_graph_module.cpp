// SPDX-License-Identifier: MIT
// The torch.fx objects a backend receives (GraphModule, Graph, Node) over hand-built graphs,
// and the `operator` module: what scripts see, compared with what torch.fx 2.3 and CPython
// 3.11 print.
#include "graph/graph_module.h"
#include "lang/parser.h"
#include "snippet_runner.h"
#include "torchapi/install.h"

#include <QtTest>
#include <memory>

using namespace kiln;
using namespace kiln::lang;

namespace {

/// An interpreter with torch installed that runs snippets as __main__.
class Script : public kiln::testing::TorchSnippets {
public:
    Script()
        : TorchSnippets("import torch\nimport operator\n") {}

    /// Everything `code` prints (or its error).
    QString output(const std::string& code) {
        sink.out.clear();
        std::string error = run(code);
        return QString::fromStdString(error.empty() ? sink.out : error);
    }

    /// What print((expr)) shows (a tuple for "a, b"), without the trailing newline.
    QString print(const std::string& expr) {
        QString out = output("print((" + expr + "))");
        return out.endsWith('\n') ? out.chopped(1) : out;
    }

    /// Makes `value` visible to every snippet as `name` (a builtin, so it survives runMain).
    void expose(const char* name, Value value) {
        interp.builtinsModule().globals.set(Symbol::intern(name), std::move(value));
    }

    Value torchFunction(const char* name) {
        const Value* v = interp.importModule("torch")->globals.find(Symbol::intern(name));
        return v ? *v : Value();
    }
};

graph::ValueMeta tensorMeta(std::vector<graph::Dim> sizes) {
    graph::ValueMeta m;
    m.kind = graph::ValueMeta::Kind::Tensor;
    m.sizes = std::move(sizes);
    return m;
}

graph::Node callNode(graph::NodeOp op, const char* name, const char* target,
                     std::vector<graph::Arg> args, graph::ValueMeta meta) {
    graph::Node n;
    n.op = op;
    n.name = name;
    n.target = target;
    n.args = std::move(args);
    n.meta = std::move(meta);
    n.sourceFile = "f.py";
    n.span.begin.line = 3;
    n.sourceCode = "return (torch.sin(x) + 1).sum()";
    n.sourceFunction = "fn";
    return n;
}

/// def fn(x): return (torch.sin(x) + 1).sum(), traced with x = f32[2, 3].
std::shared_ptr<graph::Graph> sampleGraph(Script& s) {
    using graph::Arg;
    using graph::NodeOp;
    auto g = std::make_shared<graph::Graph>();
    graph::Node x;
    x.op = NodeOp::Placeholder;
    x.name = "l_x_";
    x.target = "L_x_";
    x.meta = tensorMeta({{2}, {3}});
    int32_t ix = g->add(x);
    graph::Node sin = callNode(NodeOp::CallFunction, "sin", "torch.sin", {Arg::ofNode(ix)},
                               tensorMeta({{2}, {3}}));
    sin.callable = s.torchFunction("sin");
    int32_t isin = g->add(sin);
    graph::Node add =
        callNode(NodeOp::CallFunction, "add", "operator.add",
                 {Arg::ofNode(isin), Arg::ofConstant(Value::fromInt(1))}, tensorMeta({{2}, {3}}));
    add.operatorKind = graph::OperatorKind::Binary;
    add.operatorCode = static_cast<uint8_t>(BinaryOperator::Add);
    int32_t iadd = g->add(add);
    int32_t isum =
        g->add(callNode(NodeOp::CallMethod, "sum_1", "sum", {Arg::ofNode(iadd)}, tensorMeta({})));
    graph::Node out;
    out.op = NodeOp::Output;
    out.name = "output";
    out.target = "output";
    out.args = {Arg::ofSequence(Arg::Kind::Tuple, {Arg::ofNode(isum)})};
    g->add(out);
    return g;
}

/// def fn(x, n): return x.sum(dim=1)[0], with x's first dimension dynamic (s0, example 4).
std::shared_ptr<graph::Graph> symbolicGraph(Script& s) {
    using graph::Arg;
    using graph::NodeOp;
    auto g = std::make_shared<graph::Graph>();
    graph::Node s0;
    s0.op = NodeOp::Placeholder;
    s0.name = s0.target = "s0";
    s0.meta.kind = graph::ValueMeta::Kind::SymInt;
    s0.meta.sizes = {{4, "s0"}};
    g->add(s0);
    graph::Node x;
    x.op = NodeOp::Placeholder;
    x.name = "l_x_";
    x.target = "L_x_";
    x.meta = tensorMeta({{4, "s0"}, {3}});
    int32_t ix = g->add(x);
    graph::Node sum = callNode(NodeOp::CallFunction, "sum_1", "torch.sum", {Arg::ofNode(ix)},
                               tensorMeta({{4, "s0"}}));
    sum.kwargs = {{"dim", Arg::ofConstant(Value::fromInt(1))}};
    sum.callable = s.torchFunction("sum");
    int32_t isum = g->add(sum);
    graph::Node item =
        callNode(NodeOp::CallFunction, "getitem", "operator.getitem",
                 {Arg::ofNode(isum), Arg::ofConstant(Value::fromInt(0))}, tensorMeta({}));
    item.operatorKind = graph::OperatorKind::GetItem;
    int32_t iitem = g->add(item);
    graph::Node out;
    out.op = NodeOp::Output;
    out.name = out.target = "output";
    out.args = {Arg::ofSequence(Arg::Kind::Tuple, {Arg::ofNode(iitem)})};
    g->add(out);
    return g;
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

class GraphModuleTest : public QObject {
    Q_OBJECT

private slots:
    void nodesOpsNamesTargets() {
        Script s;
        s.expose("gm", graph::makeGraphModule(s.interp, sampleGraph(s)));
        QCOMPARE(s.print("[n.op for n in gm.graph.nodes]"),
                 "['placeholder', 'call_function', 'call_function', 'call_method', 'output']");
        QCOMPARE(s.print("[n.name for n in gm.graph.nodes]"),
                 "['l_x_', 'sin', 'add', 'sum_1', 'output']");
        QCOMPARE(s.print("len(gm.graph.nodes)"), "5");
        QCOMPARE(s.print("[n.target for n in gm.graph.nodes if isinstance(n.target, str)]"),
                 "['L_x_', 'sum', 'output']");
        QCOMPARE(s.print("gm.graph.nodes[1].target is torch.sin"), "True");
        QCOMPARE(s.print("repr(gm.graph.nodes[2].target)"), "<built-in function add>");
        QCOMPARE(s.print("gm.graph.nodes[2].target is operator.add"), "True");
        QCOMPARE(s.print("gm.graph.nodes[0].type is torch.Tensor, gm.graph.nodes[1].type"),
                 "(True, None)");
        QCOMPARE(s.print("repr(gm.graph.nodes[1]), str(gm.graph.nodes[1])"), "('sin', 'sin')");
        QCOMPARE(s.print("type(gm.graph.nodes[0]).__name__, type(gm.graph.nodes[0]).__module__"),
                 "('Node', 'torch.fx.node')");
    }

    void argsUsersAndIdentity() {
        Script s;
        s.expose("gm", graph::makeGraphModule(s.interp, sampleGraph(s)));
        QCOMPARE(s.print("gm.graph.nodes[1].args[0] is gm.graph.nodes[0]"), "True");
        QCOMPARE(s.print("gm.graph is gm.graph, gm.graph.nodes[3].graph is gm.graph"),
                 "(True, True)");
        QCOMPARE(s.print("gm.graph.nodes[2].args, gm.graph.nodes[2].kwargs"), "((sin, 1), {})");
        QCOMPARE(s.print("gm.graph.nodes[4].args"), "((sum_1,),)");
        QCOMPARE(s.print("gm.graph.nodes[2].args is gm.graph.nodes[2].args"), "True");
        QCOMPARE(s.print("gm.graph.nodes[0].users"), "{sin: None}");
        QCOMPARE(s.print("list(gm.graph.nodes[3].users)[0] is gm.graph.nodes[4]"), "True");
        QCOMPARE(s.print("gm.graph.nodes[4].users, gm.graph.nodes[4].all_input_nodes"),
                 "({}, [sum_1])");
        QCOMPARE(s.print("gm.graph.nodes[2].all_input_nodes"), "[sin]");
        QCOMPARE(s.print("{n: n.name for n in gm.graph.nodes}[gm.graph.nodes[1]]"), "sin");
    }

    void nodeOutlivesItsGraph() {
        Script s;
        Value gm = graph::makeGraphModule(s.interp, sampleGraph(s));
        s.expose("gm", gm);
        QCOMPARE(q(s.run("n = gm.graph.nodes[2]")), QString());
        s.expose("n", *s.interp.importModule("__main__")->globals.find(Symbol::intern("n")));
        s.expose("gm", Value::none());
        QCOMPARE(gm.asObject()->refCount(), 1);
        gm = Value(); // frees the GraphModule and its Graph object; `n` stays
        QCOMPARE(s.print("n.args[0].name, n.graph.nodes[0].name, n.args[0] is n.graph.nodes[1]"),
                 "('sin', 'l_x_', True)");
    }

    void meta() {
        Script s;
        s.expose("gm", graph::makeGraphModule(s.interp, sampleGraph(s)));
        QCOMPARE(s.print("gm.graph.nodes[1].meta['example_value'].shape"), "torch.Size([2, 3])");
        QCOMPARE(s.print("gm.graph.nodes[1].meta['example_value'].dtype"), "torch.float32");
        QCOMPARE(s.print("type(gm.graph.nodes[1].meta['example_value']).__name__, "
                         "isinstance(gm.graph.nodes[1].meta['example_value'], torch.Tensor)"),
                 "('FakeTensor', True)");
        QCOMPARE(s.print("'val' in gm.graph.nodes[1].meta"), "False");
        QCOMPARE(s.print("gm.graph.nodes[3].meta['example_value'].shape"), "torch.Size([])");
        QCOMPARE(s.print("gm.graph.nodes[1].meta['example_value']"),
                 "FakeTensor(..., size=(2, 3))");
        QCOMPARE(s.print("repr(gm.graph.nodes[2].stack_trace)"),
                 "'  File \"f.py\", line 3, in fn\\n    return (torch.sin(x) + 1).sum()\\n'");
        QCOMPARE(s.print("gm.graph.nodes[2].meta['source_fn_stack']"),
                 "[('add', <built-in function add>)]");
        QCOMPARE(s.print("gm.graph.nodes[3].meta['source_fn_stack']"), "[('sum_1', 'sum')]");
        QCOMPARE(
            s.print("'example_value' in gm.graph.nodes[4].meta, gm.graph.nodes[0].stack_trace"),
            "(False, None)");
        QCOMPARE(s.output("gm.graph.nodes[1].meta['mine'] = 5\n"
                          "print(gm.graph.nodes[1].meta['mine'])"),
                 "5\n");
    }

    void symbolicMeta() {
        Script s;
        s.expose("gm", graph::makeGraphModule(s.interp, symbolicGraph(s)));
        QCOMPARE(s.print("gm.graph.nodes[1].meta['example_value'].shape"), "torch.Size([s0, 3])");
        QCOMPARE(s.print("gm.graph.nodes[1].meta['example_value']"),
                 "FakeTensor(..., size=(s0, 3))");
        QCOMPARE(s.print("gm.graph.nodes[0].meta['example_value'], "
                         "int(gm.graph.nodes[0].meta['example_value'])"),
                 "(s0, 4)");
        QCOMPARE(s.print("gm.graph.nodes[2].kwargs, gm.graph.nodes[3].target is operator.getitem"),
                 "({'dim': 1}, True)");
        QCOMPARE(s.print("gm(5, torch.ones(5, 3))"), "(tensor(3.),)");
        QCOMPARE(q(s.run("gm(5, L_x_=torch.ones(5, 3))")), QString());
        QCOMPARE(s.output("print(gm.graph)"),
                 "graph():\n"
                 "    %s0 : torch.SymInt [num_users=0] = placeholder[target=s0]\n"
                 "    %l_x_ : torch.Tensor [num_users=1] = placeholder[target=L_x_]\n"
                 "    %sum_1 : [num_users=1] = call_function[target=torch.sum](args = (%l_x_,), "
                 "kwargs = {dim: 1})\n"
                 "    %getitem : [num_users=1] = call_function[target=operator.getitem](args = "
                 "(%sum_1, 0), kwargs = {})\n"
                 "    return (getitem,)\n");
    }

    void largeExamplesAreNotAllocated() {
        Script s;
        auto g = std::make_shared<graph::Graph>();
        graph::Node x;
        x.op = graph::NodeOp::Placeholder;
        x.name = "l_x_";
        x.target = "L_x_";
        x.meta = tensorMeta({{1024}, {1024}});
        g->add(x);
        s.expose("gm", graph::makeGraphModule(s.interp, g));
        QCOMPARE(s.print("gm.graph.nodes[0].meta['example_value'].shape"),
                 "torch.Size([1024, 1024])");
        QCOMPARE(s.print("gm.graph.nodes[0].meta['example_value'].stride()"), "(1024, 1)");
    }

    void callModule() {
        Script s;
        QCOMPARE(q(s.run("fc = torch.nn.Linear(2, 2)")), QString());
        auto g = std::make_shared<graph::Graph>();
        graph::Node x;
        x.op = graph::NodeOp::Placeholder;
        x.name = "l_x_";
        x.target = "L_x_";
        x.meta = tensorMeta({{1}, {2}});
        int32_t ix = g->add(x);
        graph::Node fc = callNode(graph::NodeOp::CallModule, "l__self___fc", "L__self___fc",
                                  {graph::Arg::ofNode(ix)}, tensorMeta({{1}, {2}}));
        fc.callable = *s.interp.importModule("__main__")->globals.find(Symbol::intern("fc"));
        int32_t ifc = g->add(fc);
        graph::Node out;
        out.op = graph::NodeOp::Output;
        out.name = out.target = "output";
        out.args = {graph::Arg::ofSequence(graph::Arg::Kind::Tuple, {graph::Arg::ofNode(ifc)})};
        g->add(out);
        s.expose("gm", graph::makeGraphModule(s.interp, g));
        QCOMPARE(s.output("print(repr(gm))"),
                 "GraphModule(\n  (L__self___fc): Linear(in_features=2, out_features=2, "
                 "bias=True)\n)\n");
        QCOMPARE(s.print("gm.graph.nodes[1].target, gm.graph.nodes[1].meta['source_fn_stack']"),
                 "('L__self___fc', [('l__self___fc', <class "
                 "'torch.nn.modules.linear.Linear'>)])");
        QCOMPARE(s.print("gm(torch.ones(1, 2))[0].shape"), "torch.Size([1, 2])");
    }

    void calling() {
        Script s;
        s.expose("gm", graph::makeGraphModule(s.interp, sampleGraph(s)));
        QCOMPARE(q(s.run("x = torch.randn(2, 3)\n"
                         "out = gm(x)\n"
                         "assert type(out) is tuple and len(out) == 1\n"
                         "assert torch.allclose(out[0], (torch.sin(x) + 1).sum())\n"
                         "assert torch.allclose(gm.forward(x)[0], (torch.sin(x) + 1).sum())\n")),
                 QString());
        QCOMPARE(q(s.run("gm()")),
                 "TypeError: forward() missing 1 required positional argument: 'L_x_'");
        QCOMPARE(q(s.run("gm(1, 2)")),
                 "TypeError: forward() takes 2 positional arguments but 3 were given");
    }

    void code() {
        Script s;
        s.expose("gm", graph::makeGraphModule(s.interp, sampleGraph(s)));
        QCOMPARE(s.print("repr(gm.code)"), "'\\n\\n\\ndef forward(self, L_x_ : torch.Tensor):\\n"
                                           "    l_x_ = L_x_\\n"
                                           "    sin = torch.sin(l_x_);  l_x_ = None\\n"
                                           "    add = sin + 1;  sin = None\\n"
                                           "    sum_1 = add.sum();  add = None\\n"
                                           "    return (sum_1,)\\n    \\n'");
        QCOMPARE(s.print("type(gm).__name__, type(gm).__module__, repr(gm)"),
                 "('GraphModule', 'torch.fx.graph_module', 'GraphModule()')");
        QVERIFY(s.print("str(gm)").startsWith("GraphModule()\n\n\n\ndef forward(self, L_x_"));
        QVERIFY(s.print("str(gm)").endsWith(
            "\n# To see more debug info, please use `graph_module.print_readable()`"));
        QCOMPARE(s.print("gm.meta"), "{}");
    }

    void printReadable() {
        Script s;
        s.expose("gm", graph::makeGraphModule(s.interp, sampleGraph(s)));
        const QString readable = "class GraphModule(torch.nn.Module):\n"
                                 "    def forward(self, L_x_ : \"f32[2, 3]\"):\n"
                                 "        l_x_ = L_x_\n"
                                 "\n"
                                 "        # File: f.py:3, code: return (torch.sin(x) + 1).sum()\n"
                                 "        sin: \"f32[2, 3]\" = torch.sin(l_x_);  l_x_ = None\n"
                                 "        add: \"f32[2, 3]\" = sin + 1;  sin = None\n"
                                 "        sum_1: \"f32[]\" = add.sum();  add = None\n"
                                 "        return (sum_1,)\n"
                                 "        \n";
        QCOMPARE(s.output("r = gm.print_readable()"), readable + "\n");
        QCOMPARE(s.output("r = gm.print_readable(print_output=False)\nprint(r, end='')"), readable);
    }

    void graphStr() {
        Script s;
        s.expose("gm", graph::makeGraphModule(s.interp, sampleGraph(s)));
        QCOMPARE(s.print("str(gm.graph) == format(gm.graph)"), "True");
        QCOMPARE(s.output("print(gm.graph)"),
                 "graph():\n"
                 "    %l_x_ : torch.Tensor [num_users=1] = placeholder[target=L_x_]\n"
                 "    %sin : [num_users=1] = call_function[target=torch.sin](args = (%l_x_,), "
                 "kwargs = {})\n"
                 "    %add : [num_users=1] = call_function[target=operator.add](args = (%sin, "
                 "1), kwargs = {})\n"
                 "    %sum_1 : [num_users=1] = call_method[target=sum](args = (%add,), kwargs = "
                 "{})\n"
                 "    return (sum_1,)\n");
        QCOMPARE(s.print("gm.graph.nodes[2].format_node()"),
                 "%add : [num_users=1] = call_function[target=operator.add](args = (%sin, 1), "
                 "kwargs = {})");
    }

    void printTabular() {
        Script s;
        s.expose("gm", graph::makeGraphModule(s.interp, sampleGraph(s)));
        // torch.sin is a builtin method of a class object in PyTorch: its repr holds an
        // address, which sets the column's width.
        const QString table = s.output("gm.graph.print_tabular()");
        const QString sin =
            QRegularExpression("<built-in method sin of type object at 0x[0-9a-f]+>")
                .match(table)
                .captured(0);
        QVERIFY(!sin.isEmpty());
        const QString target = QString("target").leftJustified(sin.size());
        const QString expected =
            "opcode         name    " + target + "  args         kwargs\n" +
            "-------------  ------  " + QString(sin.size(), '-') + "  -----------  --------\n" +
            "placeholder    l_x_    " + QString("L_x_").leftJustified(sin.size()) +
            "  ()           {}\n" + "call_function  sin     " + sin + "  (l_x_,)      {}\n" +
            "call_function  add     " +
            QString("<built-in function add>").leftJustified(sin.size()) + "  (sin, 1)     {}\n" +
            "call_method    sum_1   " + QString("sum").leftJustified(sin.size()) +
            "  (add,)       {}\n" + "output         output  " +
            QString("output").leftJustified(sin.size()) + "  ((sum_1,),)  {}\n";
        QCOMPARE(table, expected);
    }

    void graphOfAndOperatorFunction() {
        Script s;
        auto g = sampleGraph(s);
        Value gm = graph::makeGraphModule(s.interp, g);
        QCOMPARE(graph::graphOf(gm).get(), g.get());
        QVERIFY(!graph::graphOf(Value::none()));
        QVERIFY(!graph::graphOf(s.torchFunction("sin")));
        auto nameOf = [&](graph::OperatorKind kind, uint8_t code) {
            graph::Node n;
            n.operatorKind = kind;
            n.operatorCode = code;
            Value fn = graph::operatorFunction(s.interp, n);
            return fn.isEmpty() ? QString("<none>") : q(s.interp.repr(fn));
        };
        using K = graph::OperatorKind;
        auto c = [](auto op) { return static_cast<uint8_t>(op); };
        QCOMPARE(nameOf(K::Binary, c(BinaryOperator::Add)), "<built-in function add>");
        QCOMPARE(nameOf(K::Binary, c(BinaryOperator::BitAnd)), "<built-in function and_>");
        QCOMPARE(nameOf(K::InplaceBinary, c(BinaryOperator::Add)), "<built-in function iadd>");
        QCOMPARE(nameOf(K::InplaceBinary, c(BinaryOperator::Div)), "<built-in function itruediv>");
        QCOMPARE(nameOf(K::Compare, c(CompareOperator::Lt)), "<built-in function lt>");
        QCOMPARE(nameOf(K::Compare, c(CompareOperator::IsNot)), "<built-in function is_not>");
        QCOMPARE(nameOf(K::Compare, c(CompareOperator::In)), "<none>");
        QCOMPARE(nameOf(K::Unary, c(UnaryOperator::Invert)), "<built-in function invert>");
        QCOMPARE(nameOf(K::GetItem, 0), "<built-in function getitem>");
        QCOMPARE(nameOf(K::SetItem, 0), "<built-in function setitem>");
        QCOMPARE(nameOf(K::None, 0), "<none>");
    }

    void operatorFunctions() {
        Script s;
        QCOMPARE(s.print("operator.add(2, 3), operator.getitem([1, 2], 1), operator.mul('a', 3)"),
                 "(5, 2, 'aaa')");
        QCOMPARE(s.print("operator.add(torch.ones(2), 1)"), "tensor([2., 2.])");
        QCOMPARE(s.print("operator.truediv(1, 2), operator.floordiv(7, 2), operator.pow(2, 10)"),
                 "(0.5, 3, 1024)");
        QCOMPARE(s.print("operator.and_(6, 3), operator.or_(6, 3), operator.xor(6, 3)"),
                 "(2, 7, 5)");
        QCOMPARE(s.print("operator.neg(3), operator.pos(-3), operator.invert(0), operator.not_(0)"),
                 "(-3, -3, -1, True)");
        QCOMPARE(s.print("operator.lt(1, 2), operator.ge(1, 2), operator.eq(2, 2.0), "
                         "operator.is_(None, None), operator.is_not(1, None)"),
                 "(True, False, True, True, True)");
        QCOMPARE(s.print("operator.contains([1, 2], 2), operator.truth([]), operator.abs(-2)"),
                 "(True, False, 2)");
        QCOMPARE(s.print("operator.index(True), operator.countOf([1, 2, 1], 1), "
                         "operator.indexOf('abc', 'c'), operator.length_hint(5, 7)"),
                 "(1, 2, 2, 7)");
        QCOMPARE(s.print("operator.concat([1], [2]), operator.call(len, 'abc')"), "([1, 2], 3)");
        QCOMPARE(s.output("a = [1]\nb = operator.iadd(a, [2])\nprint(a, b is a)\n"
                          "d = {}\noperator.setitem(d, 'k', 1)\nprint(d)\n"
                          "operator.delitem(d, 'k')\nprint(d)"),
                 "[1, 2] True\n{'k': 1}\n{}\n");
        QCOMPARE(s.print("operator.inv is operator.invert, operator.__add__ is operator.add, "
                         "operator.__and__ is operator.and_"),
                 "(True, True, True)");
        QCOMPARE(s.print("repr(operator.add), repr(operator.inv)"),
                 "('<built-in function add>', '<built-in function invert>')");
    }

    void operatorErrors() {
        Script s;
        QCOMPARE(q(s.run("operator.add(1)")), "TypeError: add expected 2 arguments, got 1");
        QCOMPARE(q(s.run("operator.neg()")),
                 "TypeError: neg() takes exactly one argument (0 given)");
        QCOMPARE(q(s.run("operator.add(a=1, b=2)")), "TypeError: add() takes no keyword arguments");
        QCOMPARE(q(s.run("operator.add(1, 'a')")),
                 "TypeError: unsupported operand type(s) for +: 'int' and 'str'");
        QCOMPARE(q(s.run("operator.concat(1, 2)")),
                 "TypeError: 'int' object can't be concatenated");
        QCOMPARE(q(s.run("operator.indexOf([1], 2)")),
                 "ValueError: sequence.index(x): x not in sequence");
    }

    void getters() {
        Script s;
        QCOMPARE(s.print("operator.attrgetter('shape')(torch.zeros(2, 3))"), "torch.Size([2, 3])");
        QCOMPARE(s.print("operator.attrgetter('T.shape', 'ndim')(torch.zeros(2, 3))"),
                 "(torch.Size([3, 2]), 2)");
        QCOMPARE(s.print("operator.itemgetter(0)([5, 6]), operator.itemgetter(0, 2)('abc')"),
                 "(5, ('a', 'c'))");
        QCOMPARE(s.print("operator.methodcaller('sum', dim=0)(torch.ones(2, 3))"),
                 "tensor([2., 2., 2.])");
        QCOMPARE(s.print("operator.attrgetter('a', 'b.c'), operator.itemgetter(0, 'k')"),
                 "(operator.attrgetter('a', 'b.c'), operator.itemgetter(0, 'k'))");
        QCOMPARE(s.print("operator.methodcaller('f', 1, k=2)"),
                 "operator.methodcaller('f', 1, k=2)");
        QCOMPARE(s.print("type(operator.attrgetter('a')) is operator.attrgetter"), "True");
        QCOMPARE(q(s.run("operator.attrgetter(1)")), "TypeError: attribute name must be a string");
        QCOMPARE(q(s.run("operator.itemgetter()")),
                 "TypeError: itemgetter expected 1 argument, got 0");
        QCOMPARE(q(s.run("operator.itemgetter(0)()")),
                 "TypeError: itemgetter expected 1 argument, got 0");
        QCOMPARE(q(s.run("operator.methodcaller()")),
                 "TypeError: methodcaller needs at least one argument, the method name");
    }
};

QTEST_APPLESS_MAIN(GraphModuleTest)
#include "tst_graph_module.moc"
