#include "cli/web/web_guard.h"

#include <array>
#include <cstdio>
#include <random>

namespace halma::web {

std::string make_token() {
    std::random_device device; // /dev/urandom on Linux
    std::string token;
    for (int i = 0; i < 4; ++i) {
        std::array<char, 9> hex {};
        std::snprintf(hex.data(), hex.size(), "%08x", static_cast<unsigned>(device()));
        token += hex.data();
    }
    return token;
}

WebGuard::WebGuard(std::string token, int port)
    : token_(std::move(token))
    , port_(port)
    // One cookie a port: two `halma web`s (two users, two runtime dirs) do not overwrite each
    // other's, since cookies do not tell ports apart.
    , cookie_name_("halma_token_" + std::to_string(port)) { }

bool WebGuard::our_host(std::string_view host) const {
    std::string port = ":" + std::to_string(port_);
    return host == "127.0.0.1" + port || host == "localhost" + port || host == "[::1]" + port;
}

bool WebGuard::token_matches(std::string_view candidate) const {
    // Compared in constant time: the time taken says nothing about how much of a guess was right.
    if (candidate.size() != token_.size()) return false;
    unsigned char diff = 0;
    for (std::size_t i = 0; i < token_.size(); ++i)
        diff |= static_cast<unsigned char>(candidate[i] ^ token_[i]);
    return diff == 0;
}

std::string WebGuard::cookie_token(std::string_view header) const {
    std::string key = cookie_name_ + "=";
    std::size_t at = 0;
    while (at < header.size()) {
        while (at < header.size() && (header[at] == ' ' || header[at] == ';')) ++at;
        std::size_t end = header.find(';', at);
        if (end == std::string_view::npos) end = header.size();
        std::string_view pair = header.substr(at, end - at);
        if (pair.substr(0, key.size()) == key) return std::string(pair.substr(key.size()));
        at = end;
    }
    return "";
}

std::string WebGuard::refuse_reason(const RequestFacts& r) const {
    if (!our_host(r.host))
        return "wrong Host header \"" + r.host + "\": open the address halma web printed";
    // A browser sends Origin with every request that changes something; a page of another site
    // (or of this one under another name) has another origin.
    bool reads = r.method == "GET" || r.method == "HEAD";
    if (r.origin.empty() ? !reads
                         : r.origin.substr(0, 7) != "http://" || !our_host(r.origin.substr(7)))
        return "request from another origin (" + (r.origin.empty() ? "none" : r.origin)
            + ") refused";
    // Sec-Fetch-Site: "none" when the user opened the URL, "same-origin" for the page's own.
    if (!r.fetch_site.empty() && r.fetch_site != "same-origin" && r.fetch_site != "none")
        return "cross-site request refused";
    if (!token_matches(r.query_token) && !token_matches(cookie_token(r.cookie_header)))
        return "no valid token: open the address halma web printed, with its ?token=";
    return "";
}

std::string WebGuard::cookie() const {
    // HttpOnly: no script reads it; SameSite=Strict: no other site's page makes the browser send
    // it.
    return cookie_name_ + "=" + token_ + "; Path=/; HttpOnly; SameSite=Strict";
}

} // namespace halma::web
