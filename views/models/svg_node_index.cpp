// SPDX-License-Identifier: MIT
#include "svg_node_index.h"

#include <QRegularExpression>
#include <QStringTokenizer>
#include <QXmlStreamReader>
#include <algorithm>
#include <optional>

namespace kiln::views {

namespace {

/// Every number in \p text, in order ("M42,-281.5C42,..." → 42, -281.5, 42, ...).
std::vector<double> numbersIn(QStringView text) {
    static const QRegularExpression number(
        QStringLiteral(R"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"));
    std::vector<double> out;
    for (auto it = number.globalMatch(text); it.hasNext();)
        out.push_back(it.next().captured().toDouble());
    return out;
}

/// The box around the (x, y) pairs of \p numbers; nothing when there are none.
std::optional<QRectF> boxOfPairs(const std::vector<double>& numbers) {
    if (numbers.size() < 2) return std::nullopt;
    double left = numbers[0], right = numbers[0], top = numbers[1], bottom = numbers[1];
    for (size_t i = 2; i + 1 < numbers.size(); i += 2) {
        left = std::min(left, numbers[i]);
        right = std::max(right, numbers[i]);
        top = std::min(top, numbers[i + 1]);
        bottom = std::max(bottom, numbers[i + 1]);
    }
    return QRectF(QPointF(left, top), QPointF(right, bottom));
}

/// An SVG transform made of scales and translations (what Graphviz writes: "scale(sx sy)
/// rotate(0) translate(tx ty)"); QTransform would pull QtGui into a QtCore library.
struct AxisTransform {
    double sx = 1, sy = 1, tx = 0, ty = 0; ///< x' = sx * x + tx

    /// This transform applied after \p inner (SVG lists apply the rightmost first).
    AxisTransform then(const AxisTransform& inner) const {
        return {sx * inner.sx, sy * inner.sy, sx * inner.tx + tx, sy * inner.ty + ty};
    }
    QRectF map(const QRectF& r) const {
        return QRectF(QPointF(sx * r.left() + tx, sy * r.top() + ty),
                      QPointF(sx * r.right() + tx, sy * r.bottom() + ty))
            .normalized();
    }
};

AxisTransform graphTransform(QStringView text) {
    AxisTransform t;
    static const QRegularExpression part(QStringLiteral(R"((scale|translate)\(([^)]*)\))"));
    for (auto it = part.globalMatch(text); it.hasNext();) {
        auto match = it.next();
        std::vector<double> v = numbersIn(match.capturedView(2));
        if (v.empty()) continue;
        const bool scale = match.capturedView(1) == u"scale";
        const double second = v.size() > 1 ? v[1] : (scale ? v[0] : 0);
        t = t.then(scale ? AxisTransform{v[0], second, 0, 0} : AxisTransform{1, 1, v[0], second});
    }
    return t;
}

/// The bounds of one shape element of a node (path, polygon, polyline, ellipse).
std::optional<QRectF> shapeBounds(const QXmlStreamReader& xml) {
    const auto attrs = xml.attributes();
    QStringView tag = xml.name();
    if (tag == u"path") return boxOfPairs(numbersIn(attrs.value("d")));
    if (tag == u"polygon" || tag == u"polyline")
        return boxOfPairs(numbersIn(attrs.value("points")));
    if (tag == u"ellipse") {
        double cx = attrs.value("cx").toDouble(), cy = attrs.value("cy").toDouble();
        double rx = attrs.value("rx").toDouble(), ry = attrs.value("ry").toDouble();
        return QRectF(cx - rx, cy - ry, 2 * rx, 2 * ry);
    }
    return std::nullopt;
}

/// Reads one `<g class="node">` group up to its end tag.
SvgNode readNode(QXmlStreamReader& xml, const AxisTransform& transform) {
    SvgNode node;
    node.svgId = xml.attributes().value("id").toString();
    std::optional<QRectF> box;
    while (xml.readNextStartElement()) {
        if (xml.name() == u"title") {
            node.name = xml.readElementText();
        } else if (xml.name() == u"text") {
            node.lines << xml.readElementText(QXmlStreamReader::IncludeChildElements);
        } else {
            if (std::optional<QRectF> shape = shapeBounds(xml))
                box = box ? box->united(*shape) : *shape;
            xml.skipCurrentElement();
        }
    }
    if (box) node.bounds = transform.map(*box);
    return node;
}

} // namespace

QString SvgNode::field(const QString& key) const {
    const QString prefix = key + u'=';
    for (const QString& line : lines)
        if (line.startsWith(prefix)) return line.mid(prefix.size()).trimmed();
    return {};
}

SvgNodeIndex SvgNodeIndex::parse(const QByteArray& svg) {
    SvgNodeIndex index;
    QXmlStreamReader xml(svg);
    AxisTransform transform;
    bool sawSvg = false;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        const auto attrs = xml.attributes();
        if (xml.name() == u"svg") {
            sawSvg = true;
            std::vector<double> box = numbersIn(attrs.value("viewBox"));
            if (box.size() == 4) index.m_viewBox = QRectF(box[0], box[1], box[2], box[3]);
        } else if (xml.name() == u"g" && attrs.value("class") == u"graph") {
            transform = graphTransform(attrs.value("transform"));
        } else if (xml.name() == u"g" && attrs.value("class") == u"node") {
            index.m_nodes.push_back(readNode(xml, transform));
        }
    }
    if (xml.hasError())
        index.m_error = QStringLiteral("the diagram is not valid SVG: %1").arg(xml.errorString());
    else if (!sawSvg)
        index.m_error = QStringLiteral("the diagram is not SVG");
    return index;
}

const SvgNode* SvgNodeIndex::find(const QString& name) const {
    for (const SvgNode& n : m_nodes)
        if (n.name == name) return &n;
    return nullptr;
}

const SvgNode* SvgNodeIndex::nodeAt(QPointF point) const {
    // Later nodes are drawn on top of earlier ones.
    for (auto it = m_nodes.rbegin(); it != m_nodes.rend(); ++it)
        if (it->bounds.contains(point)) return &*it;
    return nullptr;
}

QStringList SvgNodeIndex::search(const QString& text) const {
    QStringList names;
    const QString needle = text.trimmed();
    if (needle.isEmpty()) return names;
    for (const SvgNode& n : m_nodes) {
        bool hit = n.name.contains(needle, Qt::CaseInsensitive);
        for (qsizetype i = 0; !hit && i < n.lines.size(); ++i)
            hit = n.lines[i].contains(needle, Qt::CaseInsensitive);
        if (hit) names << n.name;
    }
    return names;
}

} // namespace kiln::views

namespace kiln::views {

namespace {

/// "fused: kernel_relu_mul" → ("fused", "kernel_relu_mul"): what graph_diagram.cpp writes as a
/// node's target.
std::pair<QString, QString> splitTarget(const SvgNode& node) {
    const QString target = node.field(QStringLiteral("target"));
    const qsizetype colon = target.indexOf(QStringLiteral(": "));
    if (colon < 0) return {{}, target};
    return {target.left(colon), target.mid(colon + 2)};
}

} // namespace

qint64 kernelOfDiagramNode(const RunSnapshot& snapshot, qint64 graphId, const SvgNode& node) {
    const QString name = splitTarget(node).second;
    if (name.isEmpty()) return -1;
    for (const KernelRecord* k : snapshot.kernelsOf(graphId))
        if (QString::fromStdString(k->kernel.name) == name) return k->kernel.kernelId;
    return -1;
}

QString diagramNodeOfKernel(const RunSnapshot& snapshot, const SvgNodeIndex& index,
                            qint64 kernelId) {
    const KernelRecord* k = snapshot.kernel(kernelId);
    if (!k) return {};
    const QString name = QString::fromStdString(k->kernel.name);
    for (const SvgNode& node : index.nodes())
        if (!splitTarget(node).first.isEmpty() && splitTarget(node).second == name)
            return node.name;
    return {};
}

namespace {

const trace::GraphNodeRow* graphNodeNamed(std::span<const trace::GraphNodeRow> nodes,
                                          QStringView name) {
    for (const trace::GraphNodeRow& n : nodes)
        if (QString::fromStdString(n.name) == name) return &n;
    return nullptr;
}

/// The captured nodes kernel code says buffer \p buffer came from ("  # relu, mul").
QStringList originsOfBuffer(const KernelRecord& kernel, const QString& buffer) {
    const QString prefix = buffer + QStringLiteral(": ");
    const QString code = QString::fromStdString(kernel.kernel.sourceCode);
    for (QStringView line : QStringTokenizer(code, u'\n')) {
        line = line.trimmed();
        if (!line.startsWith(prefix)) continue;
        const qsizetype hash = line.lastIndexOf(u"  # ");
        if (hash < 0) return {};
        return line.mid(hash + 4).toString().split(QStringLiteral(", "), Qt::SkipEmptyParts);
    }
    return {};
}

} // namespace

const trace::GraphNodeRow* graphNodeOfDiagramNode(const RunSnapshot& snapshot, qint64 graphId,
                                                  const SvgNode& node) {
    const std::span<const trace::GraphNodeRow> nodes = snapshot.nodesOf(graphId);
    if (const trace::GraphNodeRow* input = graphNodeNamed(nodes, node.name)) return input;
    for (const KernelRecord* k : snapshot.kernelsOf(graphId)) {
        // A buffer is the result of the last of its origins; the earlier ones were inlined.
        const trace::GraphNodeRow* last = nullptr;
        for (const QString& origin : originsOfBuffer(*k, node.name)) {
            const trace::GraphNodeRow* n = graphNodeNamed(nodes, origin);
            if (n && (!last || n->order > last->order)) last = n;
        }
        if (last) return last;
    }
    return nullptr;
}

QStringList preFusionNodesOfKernel(const RunSnapshot& snapshot, const SvgNodeIndex& index,
                                   qint64 kernelId) {
    static const QRegularExpression stage(
        QStringLiteral(R"(^    (\S+): (?:Pointwise|Reduction|Extern|Fallback))"),
        QRegularExpression::MultilineOption);
    QStringList names;
    const KernelRecord* k = snapshot.kernel(kernelId);
    if (!k) return names;
    const QString code = QString::fromStdString(k->kernel.sourceCode);
    for (auto it = stage.globalMatch(code); it.hasNext();) {
        const QString buffer = it.next().captured(1);
        if (index.find(buffer) && !names.contains(buffer)) names << buffer;
    }
    return names;
}

} // namespace kiln::views
