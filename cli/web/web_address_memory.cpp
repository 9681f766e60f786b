#include "cli/web/web_address_memory.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace halma::web {

namespace {

constexpr const char* kFileName = "/web-address";

bool is_token(const std::string& text) {
    if (text.size() != 32) return false;
    for (char c : text)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

} // namespace

std::optional<WebAddress> recall_web_address(const std::string& runtime_dir) {
    std::string path = runtime_dir + kFileName;
    int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct stat st { };
    bool trusted = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == getuid()
        && (st.st_mode & 077) == 0 && st.st_size < 128;
    char text[128] = {};
    ssize_t got = trusted ? read(fd, text, sizeof text - 1) : -1;
    close(fd);
    if (got <= 0) return std::nullopt;
    int port = 0;
    char token[64] = {};
    if (std::sscanf(text, "%d %63s", &port, token) != 2 || port < 1 || port > 65535
        || !is_token(token))
        return std::nullopt;
    return WebAddress { port, token };
}

std::string remember_web_address(const std::string& runtime_dir, const WebAddress& address) {
    std::string path = runtime_dir + kFileName, temporary = path + ".new";
    unlink(temporary.c_str()); // one left by a `halma web` killed while writing it
    int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return "cannot write " + temporary + ": " + std::strerror(errno);
    std::string text = std::to_string(address.port) + " " + address.token + "\n";
    bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    written = close(fd) == 0 && written;
    if (!written || rename(temporary.c_str(), path.c_str()) != 0) {
        std::string why = std::strerror(errno);
        unlink(temporary.c_str());
        return "cannot write " + path + ": " + why;
    }
    return {};
}

} // namespace halma::web
