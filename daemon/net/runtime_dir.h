// The daemon's runtime directory: owner-only (0700), holding the local API socket (0600) and a
// lock file, because a second daemon binding the same ipc path would silently steal it. Under
// systemd the unit sets the directory's mode; one open to its group opens the socket to it too.
#pragma once

#include "engine/result.h"

#include <filesystem>
#include <string>
#include <sys/types.h>

namespace halma::daemon {

// An exclusive lock on a file (holding this process's id) for as long as the object lives: one
// daemon per runtime directory, and one per state directory, whose rooms it alone may write.
class DirLock {
public:
    // Fails, naming the pid that holds it, if another process has the lock.
    static engine::Result<DirLock> take(const std::filesystem::path& file);
    DirLock(DirLock&& other) noexcept;
    DirLock& operator=(DirLock&&) = delete;
    ~DirLock();

private:
    explicit DirLock(int fd)
        : fd_(fd) { }
    int fd_ = -1;
};

class RuntimeDir {
public:
    // Creates the directory if needed and takes the lock; fails if another halmad holds it.
    static engine::Result<RuntimeDir> claim(const std::filesystem::path& dir);
    RuntimeDir(RuntimeDir&& other) noexcept;
    RuntimeDir& operator=(RuntimeDir&&) = delete;
    ~RuntimeDir();

    std::filesystem::path api_socket() const { return dir_ / "api.sock"; }
    std::string api_endpoint() const { return "ipc://" + api_socket().string(); }
    // After binding: the socket file usable by its owner only (0600), or also by the group when
    // the directory is systemd's and open to its group (0660, the halma group on a Pi).
    engine::Result<bool> restrict_socket() const;

private:
    RuntimeDir(std::filesystem::path dir, DirLock lock, mode_t socket_mode)
        : dir_(std::move(dir))
        , lock_(std::move(lock))
        , socket_mode_(socket_mode) { }
    std::filesystem::path dir_;
    DirLock lock_;
    mode_t socket_mode_;
    bool owner_ = true; // false once moved from: the socket file is the new owner's
};

// Creates a directory (and its parents) with mode 0700; an error names the path and reason.
engine::Result<bool> make_private_dir(const std::filesystem::path& dir);

} // namespace halma::daemon
