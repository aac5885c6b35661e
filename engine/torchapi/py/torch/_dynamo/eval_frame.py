# torch._dynamo.eval_frame: what torch.compile returns for an nn.Module.
import torch


class OptimizedModule(torch.nn.Module):
    # The compiled module wraps the original one (`_orig_mod`, registered as its only child,
    # so its parameters and state_dict keys carry the `_orig_mod.` prefix as in PyTorch).
    # Calls go through `_compiled_call`, the original module called with Kiln's capture
    # engine as the frame evaluator.

    def __init__(self, mod, compiled_call):
        super().__init__()
        self._orig_mod = mod
        object.__setattr__(self, "_compiled_call", compiled_call)

    def forward(self, *args, **kwargs):
        return self._compiled_call(*args, **kwargs)

    def __getattr__(self, name):
        if name in ("_parameters", "_buffers", "_modules", "_orig_mod"):
            return super().__getattr__(name)
        return getattr(self._orig_mod, name)


# --- torch._dynamo.explain's results (torch._dynamo.backends.debugging in PyTorch)


class FrameSummary:
    def __init__(self, filename, lineno, name, line):
        self.filename = filename
        self.lineno = lineno
        self.name = name
        self.line = line

    def __repr__(self):
        return f"<FrameSummary file {self.filename}, line {self.lineno} in {self.name}>"


class GraphCompileReason:
    def __init__(self, reason, user_stack, graph_break=True):
        self.reason = reason
        self.user_stack = user_stack
        self.graph_break = graph_break

    def __repr__(self):
        return (
            f"GraphCompileReason(reason={self.reason!r}, user_stack={self.user_stack!r}, "
            f"graph_break={self.graph_break!r})"
        )


class Guard:
    def __init__(self, name, source, create_fn, code_list):
        self.name = name
        self.source = source
        self.create_fn = create_fn
        self.code_list = code_list

    def __str__(self):
        return (
            f"Name: {self.name!r}\n"
            f"    Source: {self.source}\n"
            f"    Create Function: {self.create_fn}\n"
            f"    Guard Types: {[self.create_fn]!r}\n"
            f"    Code List: {self.code_list!r}\n"
            f"    Object Weakref: None\n"
            f"    Guarded Class Weakref: None\n"
        )


class ExplainOutput:
    def __init__(self, graphs, graph_count, graph_break_count, break_reasons, op_count,
                 ops_per_graph=None, out_guards=None, compile_times=None):
        self.graphs = graphs
        self.graph_count = graph_count
        self.graph_break_count = graph_break_count
        self.break_reasons = break_reasons
        self.op_count = op_count
        self.ops_per_graph = ops_per_graph
        self.out_guards = out_guards
        self.compile_times = compile_times

    def __str__(self):
        lines = [
            f"Graph Count: {self.graph_count}",
            f"Graph Break Count: {self.graph_break_count}",
            f"Op Count: {self.op_count}",
            "Break Reasons:",
        ]
        for i, reason in enumerate(self.break_reasons):
            lines.append(f"  Break Reason {i + 1}:")
            lines.append(f"    Reason: {reason.reason}")
            lines.append("    User Stack:")
            for frame in reason.user_stack:
                lines.append(f"      {frame!r}")
        if self.ops_per_graph is not None:
            lines.append("Ops per Graph:")
            for i, ops in enumerate(self.ops_per_graph):
                lines.append(f"  Ops {i + 1}:")
                for op in ops:
                    lines.append(f"    {op}")
        if self.out_guards is not None:
            lines.append("Out Guards:")
            for i, guard in enumerate(self.out_guards):
                lines.append(f"  Guard {i + 1}:")
                lines.append("    " + str(guard).rstrip("\n"))
        if self.compile_times is not None:
            lines.append(f"Compile Times: {self.compile_times}")
        return "\n".join(lines) + "\n"
