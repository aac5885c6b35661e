// SPDX-License-Identifier: MIT
/// \file
/// What a caller may ask of an import besides its files: to hear how far it is, and to stop it.
/// Shared by the TORCH_TRACE log import and the profile import; every field is optional.
#pragma once

#include <cstdint>
#include <functional>

namespace kiln::importer {

/// Called as an import reads its file with the bytes consumed so far and the file's size (0
/// when unknown), at least once per few hundred KiB and once at the end. Returning false
/// cancels the import: it fails with a Diagnostic of kind "ImportCancelled".
using ImportProgress = std::function<bool(int64_t bytesDone, int64_t bytesTotal)>;

struct ImportOptions {
    ImportProgress progress; ///< empty: no reports, never cancelled
};

/// The kind of the Diagnostic a cancelled import fails with.
inline constexpr const char* kImportCancelled = "ImportCancelled";

} // namespace kiln::importer
