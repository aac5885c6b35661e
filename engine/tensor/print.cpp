// SPDX-License-Identifier: MIT
// Tensor printing, following torch/_tensor_str.py rule for rule: one formatter chooses integer,
// fixed or scientific notation and a common width from the values that will be shown; nested
// brackets with one blank line per extra dimension between slabs; rows wrapped at the line
// width; tensors over the threshold summarised to their edge items; suffixes appended and
// wrapped like _add_suffixes.
#include "tensor/print.h"

#include "tensor/convert.h"
#include "tensor/device_transfer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

namespace kiln::tensor {

PrintOptions& printOptions() {
    static PrintOptions options;
    return options;
}

namespace {

/// Python's '{:.{precision}f}' / '{:.{precision}e}' (and '{:.0f}'): C's printf rounds the same
/// way, but Python writes non-finite values as inf, -inf and nan (never -nan).
std::string formatFloat(double value, int precision, char conversion) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    const char format[] = {'%', '.', '*', conversion, '\0'};
    char buffer[512];
    std::snprintf(buffer, sizeof buffer, format, precision, value);
    return buffer;
}

std::string formatIntegral(Scalar value) {
    if (value.isBool()) return value.toBool() ? "True" : "False";
    return std::to_string(value.toInt());
}

/// torch._tensor_str._Formatter.
class Formatter {
public:
    Formatter(const std::vector<Scalar>& values, bool floating, const PrintOptions& options)
        : m_floating(floating)
        , m_precision(options.precision) {
        if (!floating) {
            for (Scalar v : values)
                m_width = std::max(m_width, formatIntegral(v).size());
            return;
        }
        std::vector<double> finite;
        for (Scalar v : values)
            if (std::isfinite(v.toDouble()) && v.toDouble() != 0) finite.push_back(v.toDouble());
        if (finite.empty()) return;
        chooseMode(finite, options);
        for (double v : finite)
            m_width = std::max(m_width, widthOf(v));
    }

    size_t width() const { return m_width; }

    std::string format(Scalar value) const {
        std::string text;
        if (!m_floating) {
            text = formatIntegral(value);
        } else if (m_sciMode) {
            text = formatFloat(value.toDouble(), m_precision, 'e');
        } else if (m_intMode) {
            text = formatFloat(value.toDouble(), 0, 'f');
            if (std::isfinite(value.toDouble())) text += '.';
        } else {
            text = formatFloat(value.toDouble(), m_precision, 'f');
        }
        return text.size() < m_width ? std::string(m_width - text.size(), ' ') + text : text;
    }

private:
    void chooseMode(const std::vector<double>& finite, const PrintOptions& options) {
        double minAbs = std::abs(finite[0]), maxAbs = minAbs;
        for (double v : finite) {
            minAbs = std::min(minAbs, std::abs(v));
            maxAbs = std::max(maxAbs, std::abs(v));
            if (v != std::ceil(v)) m_intMode = false;
        }
        m_sciMode =
            options.sciMode.value_or(maxAbs / minAbs > 1000.0 || maxAbs > 1.0e8 || minAbs < 1.0e-4);
    }

    size_t widthOf(double v) const {
        if (m_sciMode) return formatFloat(v, m_precision, 'e').size();
        if (m_intMode) // room for the '.' that marks a float
            return formatFloat(v, 0, 'f').size() + 1;
        return formatFloat(v, m_precision, 'f').size();
    }

    bool m_floating;
    int m_precision;
    bool m_intMode = true;
    bool m_sciMode = false;
    size_t m_width = 1;
};

/// The indices printed along a dimension of `size`: all of them, or the edge items only.
std::vector<int64_t> shownIndices(int64_t size, bool summarize, int64_t edge) {
    std::vector<int64_t> indices;
    const bool cut = summarize && size > 2 * edge;
    for (int64_t i = 0; i < size; ++i)
        if (!cut || i < edge || i >= size - edge) indices.push_back(i);
    return indices;
}

/// Renders the body of one (non-empty) tensor: "[[1, 2],\n        [3, 4]]".
class BodyPrinter {
public:
    BodyPrinter(const Tensor& t, const PrintOptions& options)
        : m_t(t)
        , m_options(options)
        , m_summarize(t.numel() > options.threshold) {}

    std::string render(int64_t indent) {
        std::vector<Scalar> shown;
        collect(0, 0, shown);
        Formatter formatter(shown, isFloating(m_t.dtype()), m_options);
        m_formatter = &formatter;
        std::string body = m_t.dim() == 0 ? formatter.format(element(0)) : slab(0, 0, indent);
        m_formatter = nullptr;
        return body;
    }

private:
    Scalar element(int64_t offset) const {
        return readScalar(m_t.rawData() + offset * itemSize(m_t.dtype()), m_t.dtype());
    }

    /// The values the formatter sees: those get_summarized_data keeps.
    void collect(int64_t dim, int64_t offset, std::vector<Scalar>& out) const {
        if (dim == m_t.dim()) {
            out.push_back(element(offset));
            return;
        }
        const int64_t edge = m_options.edgeItems;
        const bool last = dim == m_t.dim() - 1;
        if (m_summarize && edge == 0 && !last) return;
        std::vector<int64_t> indices = shownIndices(m_t.sizes()[dim], m_summarize, edge);
        if (m_summarize && edge == 0) // x[:0] + x[-0:] keeps a whole row in Python
            indices = shownIndices(m_t.sizes()[dim], false, edge);
        for (int64_t i : indices)
            collect(dim + 1, offset + i * m_t.strides()[dim], out);
    }

    std::string slab(int64_t dim, int64_t offset, int64_t indent) const {
        if (dim == m_t.dim() - 1) return row(offset, indent);
        const int64_t size = m_t.sizes()[dim], edge = m_options.edgeItems;
        std::vector<std::string> parts;
        for (int64_t i : shownIndices(size, m_summarize, edge)) {
            if (m_summarize && size > 2 * edge && i == size - edge) parts.push_back("...");
            parts.push_back(slab(dim + 1, offset + i * m_t.strides()[dim], indent + 1));
        }
        if (m_summarize && size > 2 * edge && edge == 0) parts.push_back("...");
        return bracketed(join(parts, separator(m_t.dim() - dim - 1, indent + 1)));
    }

    std::string row(int64_t offset, int64_t indent) const {
        const int64_t size = m_t.sizes().back(), stride = m_t.strides().back();
        const int64_t edge = m_options.edgeItems;
        std::vector<std::string> items;
        if (m_summarize && edge == 0) {
            items.push_back("...");
        } else {
            for (int64_t i : shownIndices(size, m_summarize, edge)) {
                if (m_summarize && size > 2 * edge && i == size - edge) items.push_back(" ...");
                items.push_back(m_formatter->format(element(offset + i * stride)));
            }
        }
        const double available = double(m_options.lineWidth - indent);
        const double itemLength = double(m_formatter->width() + 2);
        const size_t perLine =
            static_cast<size_t>(std::max(1.0, std::floor(available / itemLength)));
        std::vector<std::string> lines;
        for (size_t i = 0; i < items.size(); i += perLine) {
            std::vector<std::string> chunk(items.begin() + i,
                                           items.begin() + std::min(items.size(), i + perLine));
            lines.push_back(join(chunk, ", "));
        }
        return bracketed(join(lines, separator(1, indent + 1)));
    }

    /// "," then `newlines` line breaks and `spaces` spaces of indentation.
    static std::string separator(int64_t newlines, int64_t spaces) {
        std::string out(1, ',');
        out.append(static_cast<size_t>(newlines), '\n');
        out.append(static_cast<size_t>(spaces), ' ');
        return out;
    }

    static std::string bracketed(const std::string& inner) {
        std::string out(1, '[');
        out += inner;
        out += ']';
        return out;
    }

    static std::string join(const std::vector<std::string>& parts, const std::string& separator) {
        std::string out;
        for (size_t i = 0; i < parts.size(); ++i)
            out += (i ? separator : "") + parts[i];
        return out;
    }

    const Tensor& m_t;
    const PrintOptions& m_options;
    bool m_summarize;
    const Formatter* m_formatter = nullptr;
};

/// Python's str(tuple(shape)): "(0, 3)", "(5,)", "()".
std::string shapeTuple(IntList sizes) {
    std::string out = "(";
    for (size_t i = 0; i < sizes.size(); ++i)
        out += (i ? ", " : "") + std::to_string(sizes[i]);
    return out + (sizes.size() == 1 ? ",)" : ")");
}

/// torch._tensor_str._add_suffixes.
std::string addSuffixes(std::string text, const std::vector<std::string>& suffixes, int64_t indent,
                        int64_t lineWidth) {
    const size_t newline = text.rfind('\n');
    int64_t lastLineLength = static_cast<int64_t>(text.size()) -
                             (newline == std::string::npos ? -1 : int64_t(newline)) + 1;
    for (const std::string& suffix : suffixes) {
        const int64_t length = static_cast<int64_t>(suffix.size());
        if (lastLineLength + length + 2 > lineWidth) {
            text += ",\n" + std::string(static_cast<size_t>(indent), ' ') + suffix;
            lastLineLength = indent + length;
        } else {
            text += ", " + suffix;
            lastLineLength += length + 2;
        }
    }
    return text + ")";
}

std::vector<std::string> suffixesFor(const Tensor& t, const PrintOptions& options) {
    std::vector<std::string> suffixes;
    if (t.device().isCuda())
        suffixes.push_back("device='cuda:" + std::to_string(std::max(t.device().index, 0)) + "'");
    const std::string dtypeSuffix = "dtype=torch." + std::string(dtypeName(t.dtype()));
    if (t.numel() == 0) {
        if (t.dim() != 1) suffixes.push_back("size=" + shapeTuple(t.sizes()));
        if (t.dtype() != defaultFloatDType()) suffixes.push_back(dtypeSuffix);
    } else {
        if (options.edgeItems == 0) suffixes.push_back("size=" + shapeTuple(t.sizes()));
        const DType d = t.dtype();
        if (d != defaultFloatDType() && d != DType::Int64 && d != DType::Bool)
            suffixes.push_back(dtypeSuffix);
    }
    if (!t.gradFn().empty())
        suffixes.push_back("grad_fn=<" + std::string(t.gradFn()) + ">");
    else if (t.requiresGrad())
        suffixes.push_back("requires_grad=True");
    return suffixes;
}

} // namespace

std::string formatTensor(const Tensor& t) {
    const PrintOptions& options = printOptions();
    const std::string prefix = "tensor(";
    const int64_t indent = static_cast<int64_t>(prefix.size());
    // A device tensor's elements are printed from a host copy; its suffixes name its device.
    std::string body = t.numel() == 0 ? "[]" : BodyPrinter(copyToHost(t), options).render(indent);
    return addSuffixes(prefix + body, suffixesFor(t, options), indent, options.lineWidth);
}

std::string formatParameter(const Tensor& t) {
    return "Parameter containing:\n" + formatTensor(t);
}

} // namespace kiln::tensor
