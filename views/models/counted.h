// SPDX-License-Identifier: MIT
/// \file
/// A count with its noun in the right number, for every label Studio shows: "1 launch",
/// "3 launches", "1 compile", "0 ops". English plurals of the nouns Studio counts: -s, or -es
/// after s, x, ch and sh; irregular ones pass their plural.
#pragma once

#include <QString>
#include <cstdint>

namespace kiln::views {

/// The plural of \p noun as the nouns Studio counts form it.
inline QString pluralOf(const QString& noun) {
    const bool sibilant = noun.endsWith(u's') || noun.endsWith(u'x') ||
                          noun.endsWith(QStringLiteral("ch")) ||
                          noun.endsWith(QStringLiteral("sh"));
    return noun + (sibilant ? QStringLiteral("es") : QStringLiteral("s"));
}

/// "1 kernel", "3 kernels", "2 launches".
inline QString counted(int64_t n, const QString& noun) {
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? noun : pluralOf(noun));
}

/// "1 child", "2 children": for a noun whose plural is irregular.
inline QString counted(int64_t n, const QString& one, const QString& many) {
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

} // namespace kiln::views
