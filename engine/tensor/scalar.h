// SPDX-License-Identifier: MIT
/// \file
/// Scalar: a Python number crossing into the tensor library (bool, int or float).
#pragma once

#include "tensor/dtype.h"

#include <cstdint>

namespace kiln::tensor {

class Scalar {
public:
    enum class Kind : uint8_t { Bool, Int, Float };

    Scalar()
        : m_kind(Kind::Int)
        , m_int(0) {}
    Scalar(bool v)
        : m_kind(Kind::Bool)
        , m_int(v) {}
    Scalar(int v)
        : m_kind(Kind::Int)
        , m_int(v) {}
    Scalar(int64_t v)
        : m_kind(Kind::Int)
        , m_int(v) {}
    Scalar(double v)
        : m_kind(Kind::Float)
        , m_float(v) {}

    Kind kind() const { return m_kind; }
    bool isBool() const { return m_kind == Kind::Bool; }
    bool isInt() const { return m_kind == Kind::Int; }
    bool isFloat() const { return m_kind == Kind::Float; }
    bool isIntegral() const { return m_kind != Kind::Float; }

    double toDouble() const { return m_kind == Kind::Float ? m_float : static_cast<double>(m_int); }
    int64_t toInt() const { return m_kind == Kind::Float ? static_cast<int64_t>(m_float) : m_int; }
    bool toBool() const { return m_kind == Kind::Float ? m_float != 0.0 : m_int != 0; }

    /// The dtype a Python number of this kind gets as a tensor of its own (torch.tensor(v)).
    DType naturalDType(DType defaultFloat = DType::Float32) const {
        return m_kind == Kind::Bool  ? DType::Bool
               : m_kind == Kind::Int ? DType::Int64
                                     : defaultFloat;
    }

    template <typename T>
    T to() const {
        if constexpr (std::is_same_v<T, bool>)
            return toBool();
        else if constexpr (std::is_integral_v<T>)
            return static_cast<T>(toInt());
        else
            return static_cast<T>(static_cast<float>(toDouble()));
    }

private:
    Kind m_kind;
    union {
        int64_t m_int;
        double m_float;
    };
};

template <>
inline double Scalar::to<double>() const {
    return toDouble();
}

} // namespace kiln::tensor
