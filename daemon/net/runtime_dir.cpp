#include "daemon/net/runtime_dir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace halma::daemon {

engine::Result<bool> make_private_dir(const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return engine::fail("cannot create " + dir.string() + ": " + ec.message());
    if (chmod(dir.c_str(), 0700) != 0)
        return engine::fail("cannot make " + dir.string() + " private: " + std::strerror(errno));
    return true;
}

engine::Result<DirLock> DirLock::take(const std::filesystem::path& file) {
    int fd = open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return engine::fail("cannot open " + file.string() + ": " + std::strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        char buf[32] = {};
        auto n = read(fd, buf, sizeof buf - 1);
        close(fd);
        std::string pid = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "?";
        while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
        return engine::fail("another halmad (pid " + pid + ") holds " + file.string());
    }
    std::string pid = std::to_string(getpid()) + "\n";
    if (ftruncate(fd, 0) != 0
        || pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
        close(fd);
        return engine::fail("cannot write " + file.string() + ": " + std::strerror(errno));
    }
    return DirLock(fd);
}

DirLock::DirLock(DirLock&& other) noexcept
    : fd_(other.fd_) {
    other.fd_ = -1;
}

DirLock::~DirLock() {
    if (fd_ >= 0) close(fd_); // releases the lock; the lock file stays, harmless
}

namespace {

// The directory systemd made for this service (RuntimeDirectory=, announced in
// $RUNTIME_DIRECTORY). Its unit, not halmad, decides who may use it: RuntimeDirectoryMode=0750
// lets the group halma in, so people logged in to a Pi can use the service with halma.
bool made_by_systemd(const std::filesystem::path& dir) {
    const char* given = std::getenv("RUNTIME_DIRECTORY");
    return given && *given
        && std::filesystem::path(given).lexically_normal() == dir.lexically_normal();
}

} // namespace

engine::Result<RuntimeDir> RuntimeDir::claim(const std::filesystem::path& dir) {
    bool shared = false;
    if (made_by_systemd(dir)) {
        struct stat st { };
        if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
            return engine::fail("systemd's runtime directory " + dir.string() + " is missing");
        shared = (st.st_mode & S_IXGRP) != 0;
    } else if (auto made = make_private_dir(dir); !made) {
        return std::unexpected(made.error());
    }
    auto lock = DirLock::take(dir / "halmad.lock");
    if (!lock)
        return engine::fail(lock.error().message + "; stop it or choose another --runtime-dir");
    // Holding the lock makes a socket file left there ours to replace (a crashed daemon's).
    std::error_code ec;
    std::filesystem::remove(dir / "api.sock", ec);
    return RuntimeDir(dir, std::move(*lock), shared ? 0660 : 0600);
}

RuntimeDir::RuntimeDir(RuntimeDir&& other) noexcept
    : dir_(std::move(other.dir_))
    , lock_(std::move(other.lock_))
    , socket_mode_(other.socket_mode_)
    , owner_(std::exchange(other.owner_, false)) { }

RuntimeDir::~RuntimeDir() {
    if (!owner_) return;
    std::error_code ec;
    std::filesystem::remove(api_socket(), ec);
}

engine::Result<bool> RuntimeDir::restrict_socket() const {
    if (chmod(api_socket().c_str(), socket_mode_) != 0)
        return engine::fail(
            "cannot restrict " + api_socket().string() + ": " + std::strerror(errno));
    return true;
}

} // namespace halma::daemon
