// SPDX-License-Identifier: MIT
#include "trace/trace_path.h"

#include "trace/sqlite_handle.h"

#include <cerrno>
#include <filesystem>
#include <sqlite3.h>
#include <sys/stat.h>

namespace kiln::trace {

namespace {

namespace fs = std::filesystem;

const char* fileKind(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

Diagnostic pathError(const std::string& path, const std::string& detail) {
    return traceError(path, "cannot open", detail);
}

/// stat() failures that SQLite would word misleadingly; empty for the ones it words well.
std::string describeStatError(int error) {
    switch (error) {
    case ELOOP:
        return "a symbolic link in it loops (too many levels of symbolic links)";
    case ENAMETOOLONG:
        return "the path or one of its names is too long for the file system";
    case ENOTDIR:
        return "a part of the path that should be a directory is a file";
    default:
        return {};
    }
}

} // namespace

Status checkTracePath(const std::string& path, TracePathUse use) {
    if (path.empty()) return pathError(path, "the path is empty");
    // SQLite turns the path into an absolute one and needs it, with its longest companion
    // file's suffix ("-journal"), to fit in mxPathname bytes.
    constexpr size_t kSuffixBytes = 8;
    std::error_code ec;
    std::string absolute = fs::absolute(path, ec).string();
    if (ec) absolute = path;
    const sqlite3_vfs* vfs = sqlite3_vfs_find(nullptr);
    if (vfs && absolute.size() + kSuffixBytes > size_t(vfs->mxPathname))
        return pathError(path, "its absolute path is " + std::to_string(absolute.size()) +
                                   " bytes long; SQLite accepts at most " +
                                   std::to_string(size_t(vfs->mxPathname) - kSuffixBytes));
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0) {
        if (!S_ISREG(info.st_mode))
            return pathError(path, std::string("it is ") + fileKind(info.st_mode) +
                                       ", not a regular file");
        return Status::success();
    }
    int error = errno;
    if (std::string detail = describeStatError(error); !detail.empty())
        return pathError(path, detail);
    if (error != ENOENT) return Status::success(); // EACCES and the like: SQLite says it well
    if (use == TracePathUse::Read) return pathError(path, "no such file");
    // A dangling symbolic link is created through; a missing directory is not. (A parent
    // that is a file was ENOTDIR above.)
    fs::path parent = fs::path(absolute).parent_path();
    struct stat dir {};
    if (::stat(parent.c_str(), &dir) != 0) {
        int parentError = errno;
        if (parentError == ENOENT)
            return pathError(path, "the directory '" + parent.string() + "' does not exist");
        if (std::string detail = describeStatError(parentError); !detail.empty())
            return pathError(path, detail);
    }
    return Status::success();
}

} // namespace kiln::trace
