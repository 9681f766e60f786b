#include "daemon/net/durable_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace halma::daemon {

namespace {

std::unexpected<engine::Error> os_error(
    const std::string& what, const std::filesystem::path& path) {
    return engine::fail("cannot " + what + " " + path.string() + ": " + std::strerror(errno));
}

// write() may take less than asked (a signal, a full disk on the way): go on until all is
// written or it fails. `written` counts what was taken, failed or not.
bool write_all(int fd, std::string_view bytes, std::size_t* written = nullptr) {
    while (!bytes.empty()) {
        ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) errno = ENOSPC; // no progress and no error: the disk took nothing
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
        if (written) *written += static_cast<std::size_t>(n);
    }
    return true;
}

// Opens `path` only to call `call` on it (a flush): the error named by what failed, with errno
// as the call left it.
engine::Result<bool> on_descriptor(
    const std::filesystem::path& path, int flags, int (*call)(int), const char* what) {
    int fd = ::open(path.c_str(), flags | O_CLOEXEC);
    if (fd < 0) return os_error("open", path);
    bool ok = call(fd) == 0;
    int saved = errno;
    ::close(fd);
    errno = saved;
    if (!ok) return os_error(what, path);
    return true;
}

} // namespace

engine::Result<bool> sync_directory(const std::filesystem::path& dir) {
    return on_descriptor(dir, O_RDONLY | O_DIRECTORY, ::fsync, "sync");
}

engine::Result<bool> rewrite_file_afresh(const std::filesystem::path& path) {
    auto text = read_whole_file(path);
    if (!text) return std::unexpected(text.error());
    return write_file_atomically(path, *text, Flush::kNow);
}

engine::Result<bool> sync_file_system(const std::filesystem::path& path) {
    return on_descriptor(path, O_RDONLY, ::syncfs, "sync the file system of");
}

engine::Result<bool> write_file_atomically(const std::filesystem::path& path,
    std::string_view bytes, Flush flush, std::string_view temp_suffix) {
    auto tmp = path;
    tmp += temp_suffix;
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return os_error("create", tmp);
    // A temporary file left by a crash keeps its mode through O_TRUNC: set it again.
    bool ok = ::fchmod(fd, 0600) == 0 && write_all(fd, bytes)
        && (flush == Flush::kLater || ::fsync(fd) == 0);
    int saved = ok ? 0 : errno;
    if (::close(fd) != 0 && ok) { // NFS and some file systems report a full disk only here
        ok = false;
        saved = errno;
    }
    if (!ok) {
        // A part-written temporary file would hold space a full disk needs back.
        ::unlink(tmp.c_str());
        errno = saved;
        return os_error("write", tmp);
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        saved = errno;
        ::unlink(tmp.c_str());
        errno = saved;
        return os_error("rename to", path);
    }
    if (flush == Flush::kLater) return true;
    return sync_directory(path.parent_path());
}

engine::Result<bool> write_file_flushed(const std::filesystem::path& path, std::string_view bytes) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return os_error("create", path);
    bool ok = ::fchmod(fd, 0600) == 0 && write_all(fd, bytes) && ::fdatasync(fd) == 0;
    int saved = ok ? 0 : errno;
    if (::close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (ok) return true;
    ::unlink(path.c_str()); // a part-written file would hold space a full disk needs back
    errno = saved;
    return os_error("write", path);
}

engine::Result<std::string> read_whole_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return os_error("read", path);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (in.bad()) return os_error("read", path);
    return bytes.str();
}

engine::Result<bool> flush_file(const std::filesystem::path& path) {
    return on_descriptor(path, O_WRONLY, ::fdatasync, "flush");
}

engine::Result<bool> truncate_file(const std::filesystem::path& path, std::uintmax_t size) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return os_error("open", path);
    bool ok = ::ftruncate(fd, static_cast<off_t>(size)) == 0 && ::fdatasync(fd) == 0;
    int saved = errno;
    ::close(fd);
    errno = saved;
    if (!ok) return os_error("truncate", path);
    return true;
}

engine::Result<AppendFile> AppendFile::open(const std::filesystem::path& path, bool create) {
    int flags = O_WRONLY | O_APPEND | O_CLOEXEC | (create ? O_CREAT : 0);
    int fd = ::open(path.c_str(), flags, 0600);
    if (fd < 0) return os_error("open", path);
    return AppendFile(fd, path);
}

AppendFile::AppendFile(AppendFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1))
    , path_(std::move(other.path_)) { }

AppendFile& AppendFile::operator=(AppendFile&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = std::exchange(other.fd_, -1);
        path_ = std::move(other.path_);
    }
    return *this;
}

AppendFile::~AppendFile() {
    if (fd_ >= 0) ::close(fd_);
}

engine::Result<bool> AppendFile::append(std::string_view bytes) {
    if (fd_ < 0) return engine::fail(path_.string() + " is not open");
    std::size_t written = 0;
    if (!write_all(fd_, bytes, &written)) {
        // A full disk can take part of the batch: cut it off again (that needs no space), so
        // the file ends with whole records and the next append follows them, not the torn part.
        // The file's size is looked at only then, not before every append (a system call per
        // event for what almost never happens): the loop is the file's one writer, and with
        // O_APPEND the torn part is its last `written` bytes.
        int saved = errno;
        struct stat now { };
        if (written > 0
            && (::fstat(fd_, &now) != 0
                || ::ftruncate(fd_, now.st_size - static_cast<off_t>(written)) != 0)) {
            auto why = os_error("cut back", path_);
            errno = saved;
            return engine::fail(
                os_error("append to", path_).error().message + "; " + why.error().message);
        }
        errno = saved;
        return os_error("append to", path_);
    }
    return true;
}

} // namespace halma::daemon
