// SPDX-License-Identifier: MIT
#include "tensor_testing.h"

#include "support/assert.h"
#include "tensor/shape.h"

#include <cmath>

namespace kiln::testing {

using namespace kiln::tensor;

Tensor makeTensor(const std::vector<double>& vals, IntList sizes, DType dtype) {
    std::vector<Scalar> scalars;
    scalars.reserve(vals.size());
    for (double v : vals)
        scalars.emplace_back(v);
    Tensor t = Tensor::empty(sizes, dtype);
    KILN_ASSERT(static_cast<int64_t>(vals.size()) == t.numel(), "value count != numel");
    for (size_t i = 0; i < vals.size(); ++i)
        writeScalar(t.rawData() + i * itemSize(dtype), dtype, scalars[i]);
    return t;
}

std::vector<double> values(const Tensor& t) {
    Tensor c = contiguous(t);
    std::vector<double> out(static_cast<size_t>(c.numel()));
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = readScalar(c.rawData() + i * itemSize(c.dtype()), c.dtype()).toDouble();
    return out;
}

double toleranceFor(DType dtype) {
    switch (dtype) {
    case DType::Float16:
        return 2e-3;
    case DType::BFloat16:
        return 1.6e-2;
    case DType::Float32:
        return 1e-5;
    case DType::Float64:
        return 1e-12;
    default:
        return 0.0;
    }
}

QString compareTensor(const Tensor& t, const std::vector<double>& expected, IntList expectedSizes,
                      double tolerance) {
    if (!(t.sizes() == DimVector(expectedSizes)))
        return QString("shape %1, expected %2")
            .arg(QString::fromStdString(shapeString(t.sizes())),
                 QString::fromStdString(shapeString(expectedSizes)));
    if (tolerance < 0) tolerance = toleranceFor(t.dtype());
    std::vector<double> got = values(t);
    if (got.size() != expected.size())
        return QString("%1 elements, expected %2").arg(got.size()).arg(expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
        double a = got[i], b = expected[i];
        if (std::isnan(a) && std::isnan(b)) continue;
        if (a == b) continue;
        if (!(std::abs(a - b) <= tolerance * std::max(1.0, std::abs(b))))
            return QString("element %1 is %2, expected %3")
                .arg(i)
                .arg(a, 0, 'g', 10)
                .arg(b, 0, 'g', 10);
    }
    return {};
}

} // namespace kiln::testing
