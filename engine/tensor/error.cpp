// SPDX-License-Identifier: MIT
#include "tensor/error.h"

namespace kiln::tensor {

const char* errorKindName(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::RuntimeError:
        return "RuntimeError";
    case ErrorKind::IndexError:
        return "IndexError";
    case ErrorKind::TypeError:
        return "TypeError";
    case ErrorKind::ValueError:
        return "ValueError";
    case ErrorKind::NotImplementedError:
        return "NotImplementedError";
    case ErrorKind::OutOfMemoryError:
        return "OutOfMemoryError";
    }
    return "RuntimeError";
}

void fail(ErrorKind kind, const std::string& message) {
    throw TensorError(kind, message);
}

} // namespace kiln::tensor
