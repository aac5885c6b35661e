// SPDX-License-Identifier: MIT
#include "support/event_sink.h"

namespace kiln {

const char* outputStreamName(OutputStream stream) {
    switch (stream) {
    case OutputStream::Stdout:
        return "stdout";
    case OutputStream::Stderr:
        return "stderr";
    case OutputStream::Log:
        return "log";
    }
    return "stdout";
}

} // namespace kiln
