#include "cli/client/line_reader.h"

#include <cerrno>
#include <unistd.h>

namespace halma::cli {

void LineReader::fill() {
    char chunk[4096];
    ssize_t n = read(fd_, chunk, sizeof chunk);
    if (n > 0)
        buffer_.append(chunk, static_cast<std::size_t>(n));
    else if (n == 0 || (errno != EINTR && errno != EAGAIN))
        eof_ = true;
}

std::optional<std::string> LineReader::next_line() {
    auto newline = buffer_.find('\n');
    if (newline == std::string::npos) {
        if (!eof_ || buffer_.empty()) return std::nullopt;
        newline = buffer_.size();
    }
    std::string line = buffer_.substr(0, newline);
    buffer_.erase(0, newline + 1 > buffer_.size() ? buffer_.size() : newline + 1);
    return line;
}

} // namespace halma::cli
