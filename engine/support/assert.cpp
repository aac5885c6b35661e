// SPDX-License-Identifier: MIT
#include "support/assert.h"

#include <cstdio>
#include <cstdlib>

namespace kiln {

void assertionFailed(const char* condition, const char* message, const char* file, int line) {
    std::fprintf(stderr, "kiln: internal error: %s (%s) at %s:%d\n", message, condition, file,
                 line);
    std::fflush(stderr);
    std::abort();
}

} // namespace kiln
