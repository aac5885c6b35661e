// SPDX-License-Identifier: MIT
/// \file
/// Helpers shared by the compute tests: the error an op throws, tensor comparison as a QtTest
/// check, and strided inputs built directly with Tensor::view (so these tests do not depend on
/// the view ops).
#pragma once

#include "tensor/error.h"
#include "tensor_testing.h"

#include <QMetaType>
#include <QString>
#include <QtTest>
#include <limits>
#include <vector>

Q_DECLARE_METATYPE(kiln::tensor::DType)
Q_DECLARE_METATYPE(std::vector<double>)

namespace kiln::testing {

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

/// The message of the TensorError `fn` throws (empty when it does not throw); `kind` receives
/// the error kind.
template <typename Fn>
QString errorOf(Fn&& fn, tensor::ErrorKind* kind = nullptr) {
    try {
        fn();
    } catch (const tensor::TensorError& e) {
        if (kind) *kind = e.kind();
        return QString::fromStdString(e.what());
    }
    return {};
}

/// A 1-D tensor of `dtype` with `values`.
inline tensor::Tensor vector(const std::vector<double>& values,
                             tensor::DType dtype = tensor::DType::Float32) {
    return makeTensor(values, tensor::DimVector{int64_t(values.size())}, dtype);
}

/// The transpose of a contiguous 2-D tensor, as a strided view of the same storage.
inline tensor::Tensor transposed(const tensor::Tensor& t) {
    return tensor::Tensor::view(t.storage(), t.offset(),
                                tensor::DimVector{t.sizes()[1], t.sizes()[0]},
                                tensor::DimVector{t.strides()[1], t.strides()[0]}, t.dtype());
}

/// A view with explicit geometry over `t`'s storage (slices, steps, expands).
inline tensor::Tensor strided(const tensor::Tensor& t, int64_t offset, tensor::DimVector sizes,
                              tensor::DimVector strides) {
    return tensor::Tensor::view(t.storage(), offset, std::move(sizes), std::move(strides),
                                t.dtype());
}

/// A leaf tensor that requires grad (as torch.tensor(..., requires_grad=True)).
inline tensor::Tensor leaf(const std::vector<double>& values,
                           tensor::DType dtype = tensor::DType::Float32) {
    tensor::Tensor t = vector(values, dtype);
    t.impl()->requiresGrad = true;
    return t;
}

} // namespace kiln::testing

/// Passes when `mismatch` (a compareTensor result) is empty: KILN_CHECK(compareTensor(...)).
#define KILN_CHECK(mismatch)                                                                       \
    do {                                                                                           \
        const QString mismatch_ = (mismatch);                                                      \
        QVERIFY2(mismatch_.isEmpty(), qPrintable(mismatch_));                                      \
    } while (false)
