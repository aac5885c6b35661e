// SPDX-License-Identifier: MIT
#include "support/torch_logger.h"

#include "support/assert.h"
#include "support/clock.h"

#include <pthread.h>
#include <unistd.h>

namespace kiln {

LogStamp systemLogStamp(int64_t startWallNs) {
    LogStamp stamp;
    stamp.wallNs = wallClockNs();
    stamp.relativeNs = stamp.wallNs - startWallNs;
    stamp.pid = static_cast<int64_t>(::getpid());
    // Python's threading.get_ident() is pthread_self() as an int.
    stamp.threadId = static_cast<int64_t>(::pthread_self());
    return stamp;
}

bool Logger::log(const LogRecord& record) {
    std::string_view logger = record.logger;
    if (logger.empty()) {
        KILN_ASSERT(record.artifact, "a log record needs a logger or an artifact");
        logger = artifactInfo(*record.artifact).logger;
    }
    std::optional<LogGroup> group = findLogGroup(logger);
    KILN_ASSERT(group, "a log record's logger must lie below torch");
    if (!m_logs.recordEnabled(*group, record.artifact, record.level)) return false;
    // PyTorch's artifact loggers are children named "<module>.__<artifact>" (%(name)s).
    std::string name(logger);
    if (record.artifact) {
        name += ".__";
        name += artifactName(*record.artifact);
    }
    m_sink.output(OutputStream::Log,
                  m_logs.format().format(record, name, m_stamp(m_logs.startWallNs())));
    return true;
}

} // namespace kiln
