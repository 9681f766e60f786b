// Who may use the page: anything on this machine can reach a port on 127.0.0.1, and any web site
// the user visits can make the browser send requests to it. So every request must carry the
// secret token of the URL `halma web` printed, name this server in its Host (a DNS-rebinding
// page names its own domain there) and come from this server's own origin (no cross-site
// requests). Pure functions of the request's headers, so the tests can check each rule.
#pragma once

#include <string>
#include <string_view>

namespace halma::web {

// 128 random bits as 32 hex digits, from the kernel's generator.
std::string make_token();

struct RequestFacts {
    std::string method; // "GET", "POST"...
    std::string host; // the Host header
    std::string origin; // the Origin header, empty when the browser sent none
    std::string fetch_site; // Sec-Fetch-Site, empty when absent
    std::string query_token; // ?token=
    std::string cookie_header; // the whole Cookie header
};

class WebGuard {
public:
    WebGuard(std::string token, int port);

    // Empty when the request may go on, else why it is refused (for a 403's body).
    std::string refuse_reason(const RequestFacts& request) const;
    // The Set-Cookie value that lets the page's later requests (scripts, fetch, EventSource)
    // carry the token without it being in every URL.
    std::string cookie() const;
    const std::string& token() const { return token_; }
    int port() const { return port_; }

private:
    bool our_host(std::string_view host) const;
    bool token_matches(std::string_view candidate) const;
    std::string cookie_token(std::string_view cookie_header) const;

    std::string token_;
    int port_;
    std::string cookie_name_;
};

} // namespace halma::web
