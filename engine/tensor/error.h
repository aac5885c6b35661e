// SPDX-License-Identifier: MIT
/// \file
/// Errors raised by tensor operations. Inside the tensor and language layers a failing
/// operation throws TensorError, which the interpreter turns into the Python exception of the
/// same kind (that is how `try/except RuntimeError` in a script sees it). Nothing throws across
/// engine/api: the facade turns every failure into a Diagnostic.
#pragma once

#include <stdexcept>
#include <string>

namespace kiln::tensor {

enum class ErrorKind {
    RuntimeError,
    IndexError,
    TypeError,
    ValueError,
    NotImplementedError,
    OutOfMemoryError ///< torch.OutOfMemoryError (device memory exhausted), a RuntimeError
};

const char* errorKindName(ErrorKind kind);

class TensorError : public std::runtime_error {
public:
    TensorError(ErrorKind kind, const std::string& message)
        : std::runtime_error(message)
        , m_kind(kind) {}
    ErrorKind kind() const { return m_kind; }

private:
    ErrorKind m_kind;
};

[[noreturn]] void fail(ErrorKind kind, const std::string& message);
[[noreturn]] inline void failRuntime(const std::string& message) {
    fail(ErrorKind::RuntimeError, message);
}

} // namespace kiln::tensor
