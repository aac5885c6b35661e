// SPDX-License-Identifier: MIT
#include "eager_calls.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace kiln::views {

std::unordered_map<int64_t, EagerCalls> eagerCallsByFrame(const RunSnapshot& snapshot) {
    std::unordered_map<int64_t, EagerCalls> out;
    for (const trace::EventRow& e : snapshot.events) {
        if (e.category != "capture" || e.name != "cache_limit") continue;
        const QJsonObject o =
            QJsonDocument::fromJson(QByteArray::fromStdString(e.detailJson)).object();
        auto [it, first] = out.emplace(o.value("frame_id").toInteger(-1), EagerCalls{});
        EagerCalls& calls = it->second;
        ++calls.count;
        if (!first) continue;
        calls.limit = o.value("limit").toInteger();
        if (o.contains("guard"))
            calls.why = QString("%1 expected %2, actual %3")
                            .arg(o.value("guard").toString(), o.value("expected").toString(),
                                 o.value("actual").toString());
    }
    return out;
}

} // namespace kiln::views
