#include "cli/client/record_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace halma::cli {

namespace {

// Reads at most kMaxRecordBytes + 1 bytes: one more says the file is too long.
std::optional<std::string> read_bounded(int fd, const std::string& name, std::string& error) {
    std::string text;
    char buffer[65536];
    for (;;) {
        ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            error = "cannot read " + name + ": " + std::strerror(errno);
            return std::nullopt;
        }
        if (n == 0) return text;
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > kMaxRecordBytes) {
            error = name + " is over " + std::to_string(kMaxRecordBytes >> 20)
                + " MiB: not a game record (the longest game's is a few MB)";
            return std::nullopt;
        }
    }
}

} // namespace

std::optional<std::string> read_record_file(const std::string& path, std::string& error) {
    if (path == "-") return read_bounded(STDIN_FILENO, "standard input", error);
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        error = "cannot read " + path + ": " + std::strerror(errno);
        return std::nullopt;
    }
    struct stat st { };
    std::optional<std::string> text;
    if (::fstat(fd, &st) != 0) {
        error = "cannot read " + path + ": " + std::strerror(errno);
    } else if (S_ISDIR(st.st_mode)) {
        error = path + " is a directory, not a record file";
    } else if (!S_ISREG(st.st_mode)) {
        error = path
            + " is not a file (a device, a pipe or a socket): give a record file, or - "
              "to read standard input";
    } else {
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        text = read_bounded(fd, path, error);
    }
    ::close(fd);
    return text;
}

} // namespace halma::cli
