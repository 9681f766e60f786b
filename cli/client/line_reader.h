// Lines typed on a file descriptor (the terminal, or a pipe feeding `halma play`), read only when
// poll says the fd is ready. Not std::getline: std::cin reads ahead, and lines it has buffered
// never make the fd readable again, so a poll loop would sit on them (or spin at end of input).
#pragma once

#include <optional>
#include <string>

namespace halma::cli {

class LineReader {
public:
    explicit LineReader(int fd)
        : fd_(fd) { }

    int fd() const { return fd_; }
    // Reads what is there now (call after poll reported the fd ready, readable or hung up).
    void fill();
    // The next complete line without its newline; at end of input, the unterminated rest.
    std::optional<std::string> next_line();
    // Input has ended and every line has been taken.
    bool done() const { return eof_ && buffer_.empty(); }

private:
    int fd_;
    std::string buffer_;
    bool eof_ = false;
};

} // namespace halma::cli
