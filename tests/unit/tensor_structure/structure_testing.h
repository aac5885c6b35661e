// SPDX-License-Identifier: MIT
/// \file
/// Shared helpers for the structural tensor tests (views, shape ops, indexing, linear algebra,
/// nn functions): counting tensors, autograd-tracked inputs and assertion macros for values and
/// for PyTorch's exact error kinds and messages.
#pragma once

#include "tensor/error.h"
#include "tensor_testing.h"

#include <QtTest>
#include <numeric>

namespace kiln::testing {

/// 0, 1, 2, ... in row-major order, like torch.arange(n, dtype=dtype).view(sizes).
inline tensor::Tensor iota(tensor::IntList sizes, tensor::DType dtype = tensor::DType::Float32) {
    std::vector<double> v(static_cast<size_t>(tensor::checkedNumel(sizes)));
    std::iota(v.begin(), v.end(), 0.0);
    return makeTensor(v, sizes, dtype);
}

/// `t` marked as a leaf that requires grad, so ops record their grad_fn names on it.
inline tensor::Tensor requiringGrad(tensor::Tensor t) {
    t.impl()->requiresGrad = true;
    return t;
}

inline QString gradFnOf(const tensor::Tensor& t) {
    return QString::fromUtf8(t.gradFn().data(), static_cast<qsizetype>(t.gradFn().size()));
}

/// compareTensor taking braced lists: sameTensor(t, {1, 2, 3}, {3}).
inline QString sameTensor(const tensor::Tensor& t, const std::vector<double>& vals,
                          const std::vector<int64_t>& sizes, double tolerance = -1) {
    return compareTensor(t, vals, sizes, tolerance);
}

/// Sizes or strides as a printable list: QCOMPARE(dims(t.strides()), QList<qint64>({4, 1})).
inline QList<qint64> dims(const tensor::DimVector& v) {
    return QList<qint64>(v.begin(), v.end());
}

} // namespace kiln::testing

/// Asserts that a comparison helper (returning an empty QString on success) succeeded.
#define KILN_CHECK(expr)                                                                           \
    do {                                                                                           \
        QString kilnMsg_ = (expr);                                                                 \
        QVERIFY2(kilnMsg_.isEmpty(), qPrintable(kilnMsg_));                                        \
    } while (false)

/// Asserts that evaluating `expr` throws TensorError of `errKind` with exactly `message`.
#define KILN_CHECK_ERROR(expr, errKind, message)                                                   \
    do {                                                                                           \
        try {                                                                                      \
            (void)(expr);                                                                          \
            QFAIL("expected an error from: " #expr);                                               \
        } catch (const ::kiln::tensor::TensorError& kilnErr_) {                                    \
            QCOMPARE(QString(::kiln::tensor::errorKindName(kilnErr_.kind())),                      \
                     QString(::kiln::tensor::errorKindName(errKind)));                             \
            QCOMPARE(QString(kilnErr_.what()), QString(message));                                  \
        }                                                                                          \
    } while (false)
