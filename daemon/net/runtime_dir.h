// The daemon's runtime directory: owner-only (0700), holding the local API socket (0600) and a
// lock file, because a second daemon binding the same ipc path would silently steal it.
#pragma once

#include "engine/result.h"

#include <filesystem>
#include <string>

namespace halma::daemon {

class RuntimeDir {
public:
    // Creates the directory if needed and takes the lock; fails if another halmad holds it.
    static engine::Result<RuntimeDir> claim(const std::filesystem::path& dir);
    RuntimeDir(RuntimeDir&& other) noexcept;
    RuntimeDir& operator=(RuntimeDir&&) = delete;
    ~RuntimeDir();

    std::filesystem::path api_socket() const { return dir_ / "api.sock"; }
    std::string api_endpoint() const { return "ipc://" + api_socket().string(); }
    // After binding: the socket file readable and writable by its owner only.
    engine::Result<bool> restrict_socket() const;

private:
    RuntimeDir(std::filesystem::path dir, int lock_fd)
        : dir_(std::move(dir))
        , lock_fd_(lock_fd) { }
    std::filesystem::path dir_;
    int lock_fd_ = -1;
};

// Creates a directory (and its parents) with mode 0700; an error names the path and reason.
engine::Result<bool> make_private_dir(const std::filesystem::path& dir);

} // namespace halma::daemon
