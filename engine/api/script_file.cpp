// SPDX-License-Identifier: MIT
#include "api/script_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <new>
#include <sys/stat.h>
#include <unistd.h>

namespace kiln::api {

namespace {

/// CPython's exception for an errno from open(): FileNotFoundError, PermissionError, ...
const char* exceptionForErrno(int error) {
    switch (error) {
    case ENOENT:
        return "FileNotFoundError";
    case EACCES:
    case EPERM:
        return "PermissionError";
    case EISDIR:
        return "IsADirectoryError";
    default:
        return "OSError";
    }
}

Diagnostic openError(const std::string& path, int error) {
    return makeDiagnostic(exceptionForErrno(error), "can't open file '" + path + "': [Errno " +
                                                        std::to_string(error) + "] " +
                                                        std::strerror(error));
}

const char* fileKind(mode_t mode) {
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

Diagnostic tooLarge(const std::string& path, const std::string& size) {
    return makeDiagnostic("OSError", "can't run '" + path + "': the script is " + size +
                                         "; Kiln runs scripts of at most " +
                                         std::to_string(kMaxScriptBytes >> 20) + " MiB (" +
                                         std::to_string(kMaxScriptBytes) + " bytes)");
}

class FileDescriptor {
public:
    explicit FileDescriptor(int fd)
        : m_fd(fd) {}
    ~FileDescriptor() {
        if (m_fd >= 0) ::close(m_fd);
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    int get() const { return m_fd; }

private:
    int m_fd;
};

Expected<std::string> readOpenScript(const std::string& path, int fd) {
    struct stat info {};
    if (::fstat(fd, &info) != 0) return openError(path, errno);
    if (S_ISDIR(info.st_mode))
        return makeDiagnostic("IsADirectoryError", "can't run '" + path + "': it is a directory");
    if (!S_ISREG(info.st_mode))
        return makeDiagnostic("OSError", "can't run '" + path + "': it is " +
                                             fileKind(info.st_mode) +
                                             ", not a regular file; kiln runs script files");
    if (size_t(info.st_size) > kMaxScriptBytes)
        return tooLarge(path, std::to_string(info.st_size) + " bytes");
    std::string text;
    text.reserve(size_t(info.st_size));
    // Read to the end rather than st_size bytes: the file may change while it is read. The cap
    // holds for a file that grows meanwhile, too.
    char buffer[1 << 16];
    for (;;) {
        ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0)
            return makeDiagnostic(exceptionForErrno(errno),
                                  "can't read file '" + path + "': [Errno " +
                                      std::to_string(errno) + "] " + std::strerror(errno));
        if (got == 0) break;
        if (text.size() + size_t(got) > kMaxScriptBytes)
            return tooLarge(path, "over that (it grew while it was read)");
        text.append(buffer, size_t(got));
    }
    return text;
}

} // namespace

Expected<std::string> readScript(const std::string& path) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused right after.
    int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return openError(path, errno);
    FileDescriptor file(fd);
    try {
        return readOpenScript(path, file.get());
    } catch (const std::bad_alloc&) {
        return makeDiagnostic("MemoryError",
                              "can't read file '" + path + "': out of memory reading the script");
    }
}

Status checkTraceIsNotScript(const std::string& scriptPath, const std::string& tracePath,
                             bool explicitDb) {
    std::error_code ec;
    if (!std::filesystem::equivalent(scriptPath, tracePath, ec) || ec) return Status::success();
    if (explicitDb)
        return makeDiagnostic("UsageError", "--db '" + tracePath +
                                                "' is the script itself; the trace must be "
                                                "another file");
    return makeDiagnostic("UsageError",
                          "the script '" + scriptPath +
                              "' ends in .kiln, so its default trace would be the script itself; "
                              "name the trace with --db");
}

} // namespace kiln::api
