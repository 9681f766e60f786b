// Errors are values: a message a person can read, naming what is wrong.
#pragma once

#include <expected>
#include <string>

namespace halma::engine {

struct Error {
    std::string message;
};

template <class T> using Result = std::expected<T, Error>;

inline std::unexpected<Error> fail(std::string message) {
    return std::unexpected(Error { std::move(message) });
}

} // namespace halma::engine
