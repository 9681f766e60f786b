// The address `halma web` served last, kept in the runtime directory beside halmad's socket, so
// that the next `halma web` serves the same one: a page left open (or bookmarked) picks up by
// itself when `halma web` is started again, instead of dying with the old port and token.
#pragma once

#include <optional>
#include <string>

namespace halma::web {

struct WebAddress {
    int port = 0;
    std::string token; // make_token()'s 32 hex digits
};

// What was remembered for this runtime directory, if anything trustworthy: the file must be
// ours and readable by nobody else (whoever could plant a token could use the page), and hold a
// port and a token of the right form. Anything else reads as nothing remembered.
std::optional<WebAddress> recall_web_address(const std::string& runtime_dir);

// Keeps `address` for the next start (mode 0600, replaced whole). Empty when kept, else why not
// (a directory that is not there yet, or not ours to write): the caller warns and goes on.
std::string remember_web_address(const std::string& runtime_dir, const WebAddress& address);

} // namespace halma::web
