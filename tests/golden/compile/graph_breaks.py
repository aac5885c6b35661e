# Graph breaks: where graphs end, what runs eagerly, and how many graphs a function becomes.
import torch

graphs = []


def backend(gm, example_inputs):
    graphs.append([n.target.__name__ for n in gm.graph.nodes if n.op == "call_function"])
    return gm.forward


def run(name, fn, *args):
    graphs.clear()
    compiled = torch.compile(fn, backend=backend)
    got = compiled(*args)
    want = fn(*args)
    same = all(torch.allclose(a, b) for a, b in zip(got, want)) if isinstance(got, tuple) \
        else torch.allclose(got, want)
    print(name, len(graphs), graphs, same)
    compiled(*args)
    print(name, "second call compiles", len(graphs))


def with_print(x):
    a = torch.sin(x) + 1
    print("between graphs")
    return torch.cos(a) * 2


def with_item(x):
    a = x.sum() * 2
    s = a.item()
    return x * s + 1


def with_branch(x):
    a = torch.sin(x)
    if a.sum() > 0:
        return torch.relu(a) + 1
    return -a


def with_graph_break(x):
    a = x + 1
    torch._dynamo.graph_break()
    return a * 3


def callee(x):
    y = torch.sin(x)
    print("in callee")
    return torch.cos(y)


def caller(x):
    a = x + 1
    b = callee(a)
    return b * 2


def in_loop(x):
    for i in range(3):
        x = x + i
        print("loop", i)
    return x


def no_ops(x):
    return x


torch.manual_seed(0)
x = torch.randn(4, 4)
run("print", with_print, x)
run("item", with_item, x)
run("branch+", with_branch, x.abs())
run("branch-", with_branch, -x.abs())
run("graph_break", with_graph_break, x)
run("inlined callee", caller, x)
run("loop", in_loop, x)
run("no ops", no_ops, x)


@torch.compiler.disable
def eager_only(x):
    return x * 10


def uses_disabled(x):
    y = eager_only(x + 1)
    return y - 1


def disabled_mid_expression(x):
    return eager_only(x + 1) - 1


def item_mid_expression(x):
    a = torch.cos(x)
    return a * a.sum().item() + 1


def print_in_argument(x):
    a = x + 2
    b = torch.sin(torch.relu(a) + (print("inside") or 0))
    return b * 3


def two_breaks_one_statement(x):
    a = x * 2
    return a.sum().item() + a.mean().item() + torch.cos(a)


def item_in_branch(x):
    a = x + 1
    if a.sum().item() > 0:
        return a * 2
    return a * 3


run("disabled", uses_disabled, x)
run("disabled mid-expression", disabled_mid_expression, x)
run("item mid-expression", item_mid_expression, x)
run("print in an argument", print_in_argument, x)
run("two breaks in one statement", two_breaks_one_statement, x)
run("item in an if test", item_in_branch, x)
