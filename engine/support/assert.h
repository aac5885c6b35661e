// SPDX-License-Identifier: MIT
/// \file
/// Assertions for Kiln's own bugs. They stay enabled in every build type: an engine that
/// continues after a broken invariant could write a wrong trace, which is worse than stopping.
/// Expected failures (bad scripts, missing devices, I/O errors) use Expected<T> instead.
#pragma once

namespace kiln {

[[noreturn]] void assertionFailed(const char* condition, const char* message, const char* file,
                                  int line);

} // namespace kiln

#define KILN_ASSERT(cond, msg)                                                                     \
    do {                                                                                           \
        if (!(cond)) [[unlikely]]                                                                  \
            ::kiln::assertionFailed(#cond, msg, __FILE__, __LINE__);                               \
    } while (false)

#define KILN_UNREACHABLE(msg) ::kiln::assertionFailed("unreachable", msg, __FILE__, __LINE__)
