// SPDX-License-Identifier: MIT
#include "import/payload_text.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <regex>
#include <tuple>

namespace kiln::importer {
namespace {

std::vector<std::string_view> splitLines(std::string_view text) {
    std::vector<std::string_view> lines;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && std::isspace((unsigned char)text.front()))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace((unsigned char)text.back()))
        text.remove_suffix(1);
    return text;
}

// ".../file.py:42 in fn" at the end of a guard's comment: 42.
int32_t userLineOfComment(std::string_view line) {
    size_t in = line.rfind(" in ");
    if (in == std::string_view::npos) return 0;
    size_t colon = line.rfind(':', in);
    if (colon == std::string_view::npos || colon + 1 >= in) return 0;
    return int32_t(
        std::strtol(std::string(line.substr(colon + 1, in - colon - 1)).c_str(), nullptr, 10));
}

std::string kernelKind(std::string_view name) {
    if (name.find("_poi_") != std::string_view::npos) return "pointwise";
    if (name.find("_red_") != std::string_view::npos ||
        name.find("_per_") != std::string_view::npos)
        return "reduction";
    if (name.find("_tem_") != std::string_view::npos) return "template";
    // Inductor's C++ backend names every kernel cpp_fused_*; its loops mix pointwise and
    // reductions, so the name alone says no more than "fused".
    return "pointwise";
}

} // namespace

std::vector<GuardEvent> parseCppGuards(std::string_view text, const std::string& compileId) {
    std::vector<GuardEvent> guards;
    std::string source;
    for (std::string_view line : splitLines(text)) {
        size_t marker = line.find("+- ");
        if (marker == std::string_view::npos) continue;
        std::string_view entry = line.substr(marker + 3);
        size_t colon = entry.find(": ");
        if (colon == std::string_view::npos) continue;
        std::string_view kind = entry.substr(0, colon);
        std::string_view body = entry.substr(colon + 2);
        if (kind.find("GuardManager") != std::string_view::npos) {
            size_t at = body.find("source=");
            size_t end = body.find(", ", at);
            source =
                at == std::string_view::npos ? "" : std::string(body.substr(at + 7, end - at - 7));
            continue;
        }
        GuardEvent guard;
        guard.compileId = compileId;
        guard.kind = std::string(kind);
        guard.source = source;
        size_t comment = body.find("  # ");
        guard.expression = std::string(trim(body.substr(0, comment)));
        if (comment != std::string_view::npos) guard.userLine = userLineOfComment(body);
        guards.push_back(std::move(guard));
    }
    return guards;
}

namespace {

/// The kind and source of one Python guard check, as the C++ guard tree would name them.
std::pair<std::string, std::string> guardKindOf(const std::string& code) {
    auto firstArgument = [&](size_t open) {
        size_t end = code.find(", ", open);
        return code.substr(open, (end == std::string::npos ? code.size() - 1 : end) - open);
    };
    struct Call {
        const char* prefix;
        const char* kind;
    };
    static const Call kCalls[] = {
        {"check_tensor(", "TENSOR_MATCH"},
        {"___check_obj_id(", "ID_MATCH"},
        {"___check_type_id(", "TYPE_MATCH"},
        {"hasattr(", "HASATTR"},
        {"___check_current_backend(", "BACKEND_MATCH"},
        {"___check_global_state(", "GLOBAL_STATE"},
        {"___check_torch_function_mode_stack(", "TORCH_FUNCTION_MODE_STACK"}};
    for (const Call& c : kCalls)
        if (code.starts_with(c.prefix)) {
            std::string kind = c.kind;
            bool sourced = kind != "BACKEND_MATCH" && kind != "GLOBAL_STATE" &&
                           kind != "TORCH_FUNCTION_MODE_STACK";
            return {kind, sourced ? firstArgument(std::strlen(c.prefix)) : std::string()};
        }
    size_t equals = code.find(" == ");
    if (code.starts_with("len(") && equals != std::string::npos)
        return {"LENGTH_CHECK", code.substr(4, code.rfind(')', equals) - 4)};
    if (equals != std::string::npos && (code.starts_with("L[") || code.starts_with("G[")))
        return {"EQUALS_MATCH", code.substr(0, equals)};
    return {"LAMBDA_GUARD", ""};
}

} // namespace

std::vector<GuardEvent> parseGuardList(std::string_view text, const std::string& compileId) {
    nlohmann::json list = nlohmann::json::parse(text, nullptr, false);
    std::vector<GuardEvent> guards;
    if (!list.is_array()) return guards;
    for (const nlohmann::json& entry : list) {
        if (!entry.is_object() || !entry.contains("code") || !entry["code"].is_string()) continue;
        GuardEvent guard;
        guard.compileId = compileId;
        guard.expression = entry["code"].get<std::string>();
        std::tie(guard.kind, guard.source) = guardKindOf(guard.expression);
        const nlohmann::json& user =
            entry.contains("user_stack") ? entry["user_stack"] : nlohmann::json();
        if (user.is_array() && !user.empty() && user.back().is_object() &&
            user.back().contains("line") && user.back()["line"].is_number_integer())
            guard.userLine = user.back()["line"].get<int32_t>();
        guards.push_back(std::move(guard));
    }
    return guards;
}

std::vector<GraphNodeInfo> parseReadableGraph(std::string_view text) {
    std::vector<GraphNodeInfo> nodes;
    for (std::string_view raw : splitLines(text)) {
        std::string_view line = trim(raw);
        if (line.starts_with("def forward(")) {
            // def forward(self, L_x_: "f32[8][1]cpu", L_y_: "f32[8][1]cpu"):
            std::string_view params = line.substr(12);
            size_t pos = 0;
            while ((pos = params.find(": \"", pos)) != std::string_view::npos) {
                size_t nameStart = params.rfind(' ', pos);
                nameStart = nameStart == std::string_view::npos ? 0 : nameStart + 1;
                size_t typeEnd = params.find('"', pos + 3);
                GraphNodeInfo node;
                node.name = std::string(params.substr(nameStart, pos - nameStart));
                node.op = "placeholder";
                node.shape = std::string(params.substr(pos + 3, typeEnd - pos - 3));
                nodes.push_back(std::move(node));
                pos = typeEnd == std::string_view::npos ? params.size() : typeEnd;
            }
            continue;
        }
        if (line.starts_with("return ")) {
            nodes.push_back({"output", "output", "output", std::string(line.substr(7)), "", "", 0});
            continue;
        }
        size_t equals = line.find(" = ");
        if (line.starts_with("#") || equals == std::string_view::npos) continue;
        size_t colon = line.find(": \"");
        bool typed = colon != std::string_view::npos && colon < equals;
        std::string_view call = line.substr(equals + 3);
        // An untyped line is a node when it calls something (`split = linear.split(256)`, a
        // tuple); `l_x_ = L_x_` only renames a parameter for the readable printout.
        if (!typed && call.find('(') == std::string_view::npos) continue;
        GraphNodeInfo node;
        node.name = std::string(line.substr(0, typed ? colon : equals));
        node.op = "call_function";
        if (typed)
            node.shape = std::string(line.substr(colon + 3, line.find('"', colon + 3) - colon - 3));
        size_t paren = call.find('(');
        node.target = std::string(call.substr(0, paren));
        if (paren != std::string_view::npos) node.args = std::string(call.substr(paren));
        size_t hash = node.args.find(";  ");
        if (hash != std::string::npos) node.args.resize(hash);
        nodes.push_back(std::move(node));
    }
    return nodes;
}

std::vector<KernelEvent> parseOutputCode(std::string_view code) {
    std::vector<KernelEvent> kernels;
    constexpr std::string_view kCall = " = async_compile.";
    size_t pos = 0;
    while ((pos = code.find(kCall, pos)) != std::string_view::npos) {
        size_t lineStart = code.rfind('\n', pos);
        lineStart = lineStart == std::string_view::npos ? 0 : lineStart + 1;
        std::string_view name = code.substr(lineStart, pos - lineStart);
        size_t open = code.find("'''", pos);
        size_t lineEnd = code.find('\n', pos);
        pos += kCall.size();
        if (open == std::string_view::npos || open > lineEnd || name.empty() ||
            name.find(' ') != std::string_view::npos)
            continue; // async_compile.wait(...) and the like: not a kernel
        size_t close = code.find("'''", open + 3);
        if (close == std::string_view::npos) close = code.size();
        KernelEvent kernel;
        kernel.name = std::string(name);
        kernel.kind = kernelKind(name);
        kernel.sourceCode = std::string(code.substr(open + 3, close - open - 3));
        kernels.push_back(std::move(kernel));
        pos = close;
    }
    return kernels;
}

namespace {

bool identifierChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// The identifier at the start of \p text.
std::string_view identifierAt(std::string_view text) {
    size_t end = 0;
    while (end < text.size() && identifierChar(text[end]))
        ++end;
    return text.substr(0, end);
}

/// `NAME.OVERLOAD(` after an `aten.` at \p at of \p line, when that `aten.` starts a call (not
/// inside a quoted op name such as assert_size_stride's last argument, not part of a longer
/// name): NAME, else empty.
std::string_view atenCallAt(std::string_view line, size_t at, size_t prefix) {
    if (at > 0 && (identifierChar(line[at - 1]) || line[at - 1] == '.' || line[at - 1] == '\'' ||
                   line[at - 1] == '"'))
        return {};
    std::string_view rest = line.substr(at + prefix);
    std::string_view name = identifierAt(rest);
    if (name.empty()) return {};
    rest.remove_prefix(name.size());
    if (rest.starts_with(".")) rest.remove_prefix(1 + identifierAt(rest.substr(1)).size());
    return rest.starts_with("(") ? name : std::string_view();
}

} // namespace

std::vector<ExternCall> parseExternCalls(std::string_view code) {
    std::vector<ExternCall> calls;
    constexpr std::string_view kNodes = "# Topologically Sorted Source Nodes: [";
    constexpr std::string_view kExtern = "extern_kernels.";
    bool inCall = false;
    std::string nodes;
    for (std::string_view raw : splitLines(code)) {
        std::string_view line = trim(raw);
        if (line.starts_with("def ")) {
            inCall = line.starts_with("def call(");
            continue;
        }
        if (!inCall) continue;
        if (line.starts_with(kNodes)) {
            std::string_view list = line.substr(kNodes.size());
            list = list.substr(0, list.find(']'));
            nodes.clear();
            for (char c : list)
                if (c != ' ') nodes += c;
            continue;
        }
        if (line.starts_with("#") || line.starts_with("assert_")) continue;
        ExternCall call;
        if (size_t at = line.find(kExtern);
            at != std::string_view::npos && (at == 0 || !identifierChar(line[at - 1]))) {
            std::string_view name = identifierAt(line.substr(at + kExtern.size()));
            if (name.empty() || line.substr(at + kExtern.size() + name.size(), 1) != "(") continue;
            call.name = "extern_" + std::string(name);
            // select_algorithm's bias_addmm is torch.addmm of the bias's first row.
            call.op = "aten::" + std::string(name == "bias_addmm" ? "addmm" : name);
        } else {
            std::string_view name;
            for (std::string_view prefix :
                 {std::string_view("torch.ops.aten."), std::string_view("aten.")}) {
                size_t at = line.find(prefix);
                if (at != std::string_view::npos) name = atenCallAt(line, at, prefix.size());
                if (!name.empty()) break;
            }
            if (name.empty()) continue;
            call.name = "extern_" + std::string(name);
            call.op = "aten::" + std::string(name);
        }
        call.nodes = nodes;
        call.line = std::string(line);
        nodes.clear();
        calls.push_back(std::move(call));
    }
    return calls;
}

GraphBreakEvent parseGraphBreakReason(std::string_view text) {
    GraphBreakEvent event;
    std::vector<std::string_view> lines = splitLines(text);
    constexpr std::string_view kAt = "Graph break in user code at ";
    if (!lines.empty() && lines[0].starts_with(kAt)) {
        std::string_view where = lines[0].substr(kAt.size());
        size_t colon = where.rfind(':');
        event.file = std::string(where.substr(0, colon));
        if (colon != std::string_view::npos)
            event.line =
                int32_t(std::strtol(std::string(where.substr(colon + 1)).c_str(), nullptr, 10));
    }
    bool inStack = false;
    for (size_t i = 1; i < lines.size(); ++i) {
        std::string_view line = lines[i];
        if (line.starts_with("User code traceback:")) {
            inStack = true;
            continue;
        }
        // The user stack ends at its blank line; Dynamo's own traceback follows it.
        if (inStack && line.empty() && !event.userStack.empty()) break;
        std::string& target = inStack ? event.userStack : event.reason;
        if (!target.empty()) target += '\n';
        target += line;
    }
    constexpr std::string_view kReason = "Graph Break Reason: ";
    if (event.reason.starts_with(kReason)) event.reason.erase(0, kReason.size());
    event.reason = std::string(trim(event.reason));
    // Only trailing space: the stack's indentation is PyTorch's ("  File ...", then the line).
    while (!event.userStack.empty() && std::isspace((unsigned char)event.userStack.back()))
        event.userStack.pop_back();
    if (!event.userStack.empty())
        event.userStack += '\n'; // each frame line ends in one, as Kiln's own
    // The first line after the summary names the kind of break ("Failed to trace builtin
    // operator", "Data-dependent branching", ...), PyTorch's own gb classification.
    size_t blank = event.reason.find("\n\n");
    if (blank != std::string::npos) {
        size_t end = event.reason.find('\n', blank + 2);
        event.reasonKind = event.reason.substr(blank + 2, end - blank - 2);
    }
    return event;
}

FailedGuardText parseRecompileReason(std::string_view reason) {
    // std::regex matches recursively: a damaged log's megabyte "reason" must not exhaust the
    // stack. PyTorch's reasons are one short line.
    constexpr size_t kLongestReason = 2048;
    if (reason.size() > kLongestReason) return {};
    std::string text(trim(reason));
    std::smatch m;
    // Dynamo names a local as 'x' (2.4 on) or as its source (2.3: 'L['x']').
    auto source = [](const std::string& name) {
        return name.starts_with("L[") || name.starts_with("G[") ? name : "L['" + name + "']";
    };
    static const std::regex tensor(R"(^tensor '(.+)' (\w+) mismatch(?: at index (\d+))?\. )"
                                   R"(expected ([^,]*)(?:, actual (.*))?$)");
    if (std::regex_match(text, m, tensor)) {
        std::string what = m[2].str() + (m[3].matched ? "[" + m[3].str() + "]" : "");
        // "requires_grad mismatch. expected requires_grad=0": the value names itself.
        std::string expected = m[4].str(), actual = m[5].str();
        bool named = expected.starts_with(m[2].str() + "=");
        return {source(m[1].str()), named ? expected : what + " == " + expected,
                actual.empty() || named ? actual : what + " == " + actual};
    }
    static const std::regex objectId(R"(^___check_obj_id\((.+), \d+\)$)");
    if (std::regex_match(text, m, objectId)) return {m[1].str(), "the same object", ""};
    static const std::regex equals(R"(^((?:[LG]\[|len\().+?) == (.+)$)");
    if (std::regex_match(text, m, equals)) return {m[1].str(), m[2].str(), ""};
    return {};
}

} // namespace kiln::importer
