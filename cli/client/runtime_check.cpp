#include "cli/client/runtime_check.h"

#include <cerrno>
#include <cstring>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace halma::cli {

namespace {

std::string user_name(uid_t uid) {
    if (const passwd* pw = ::getpwuid(uid))
        return std::string(pw->pw_name) + " (uid " + std::to_string(uid) + ")";
    return "uid " + std::to_string(uid);
}

// This user, root, or the service's own user: nobody else may own what we talk to.
bool trusted_owner(uid_t uid) {
    if (uid == ::geteuid() || uid == 0) return true;
    const passwd* pw = ::getpwnam("halma");
    return pw && pw->pw_uid == uid;
}

std::string octal(mode_t mode) {
    char text[8];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return text;
}

} // namespace

std::optional<std::string> runtime_dir_problem(const std::string& dir) {
    struct stat st { };
    if (::lstat(dir.c_str(), &st) != 0) {
        if (errno == ENOENT) return std::nullopt; // no daemon there: said by the caller
        return "cannot look at the runtime directory " + dir + ": " + std::strerror(errno);
    }
    if (!S_ISDIR(st.st_mode))
        return "the runtime directory " + dir
            + " is not a directory (a symlink or a file): " + "not using it";
    if (!trusted_owner(st.st_uid))
        return "the runtime directory " + dir + " belongs to " + user_name(st.st_uid)
            + ", not to you, root or halma: another user may have made it; not using it";
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return "the runtime directory " + dir + " is writable by "
            + ((st.st_mode & S_IWOTH) ? "everyone" : "its group") + " (mode " + octal(st.st_mode)
            + "): anyone there could replace the socket; not using it";
    auto sock = dir + "/api.sock";
    if (::lstat(sock.c_str(), &st) != 0) {
        if (errno == ENOENT) return std::nullopt;
        return "cannot look at " + sock + ": " + std::strerror(errno);
    }
    if (!S_ISSOCK(st.st_mode)) return sock + " is not a socket: not using it";
    if (!trusted_owner(st.st_uid))
        return sock + " belongs to " + user_name(st.st_uid)
            + ", not to you, root or halma: not using it";
    if (st.st_mode & S_IWOTH)
        return sock + " is writable by everyone (mode " + octal(st.st_mode) + "): not using it";
    return std::nullopt;
}

} // namespace halma::cli
