// The HTTP side of `halma web`: routes, the guard in front of every one, and the headers that
// keep the page from running anything it did not ship with.
#pragma once

#include "cli/web/web_guard.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

namespace halma::web {

struct ServerSettings {
    std::string runtime_dir; // the local halmad's
    std::chrono::milliseconds timeout; // per request to halmad
    int port = 0; // 0: any free port
    // With port 0: tried first, any free port if it is taken (the one served last, so that a
    // page still open comes back to it). 0: none.
    int preferred_port = 0;
    std::string token; // the secret the page must show; empty: a new one
};

class WebServer {
public:
    explicit WebServer(ServerSettings settings);
    ~WebServer();
    // Binds 127.0.0.1; false (with why) if the port asked for is taken. Then port() is the one
    // bound.
    bool bind(std::string& why);
    int port() const;
    const std::string& token() const { return token_; }
    // Serves until stop(), from another thread or a signal-waiting one.
    void run();
    void stop();

private:
    void add_routes();

    struct Impl;
    std::unique_ptr<Impl> impl_;
    ServerSettings settings_;
    std::string token_;
};

} // namespace halma::web
