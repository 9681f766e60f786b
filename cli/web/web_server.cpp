#include "cli/web/web_server.h"

#include "cli/web/api_bridge.h"
#include "cli/web/event_stream.h"
#include "cli/web/static_files.h"

#include <httplib.h>
#include <sys/socket.h>

namespace halma::web {

namespace {

constexpr const char* kLoopback = "127.0.0.1";
// A page's request bodies are small (a chat line is at most 500 bytes): anything bigger is not
// from it.
constexpr std::size_t kMaxBody = 16 * 1024;
// Each open page holds one thread for its event stream; 16 leave room for a few tabs plus their
// requests.
constexpr std::size_t kThreads = 16;

std::string mime_of(const std::string& path) {
    auto ends = [&](const char* suffix) { return path.ends_with(suffix); };
    if (ends(".html")) return "text/html; charset=utf-8";
    if (ends(".css")) return "text/css; charset=utf-8";
    if (ends(".js")) return "text/javascript; charset=utf-8";
    if (ends(".svg")) return "image/svg+xml";
    if (ends(".png")) return "image/png";
    return "application/octet-stream";
}

RequestFacts facts_of(const httplib::Request& req) {
    return { req.method, req.get_header_value("Host"), req.get_header_value("Origin"),
        req.get_header_value("Sec-Fetch-Site"), req.get_param_value("token"),
        req.get_header_value("Cookie") };
}

} // namespace

struct WebServer::Impl {
    httplib::Server server;
    std::atomic<bool> stopping { false };
    std::unique_ptr<WebGuard> guard;
};

WebServer::WebServer(ServerSettings settings)
    : impl_(std::make_unique<Impl>())
    , settings_(std::move(settings))
    , token_(settings_.token.empty() ? make_token() : settings_.token) {
    impl_->server.new_task_queue = [] { return new httplib::ThreadPool(kThreads); };
    impl_->server.set_payload_max_length(kMaxBody);
    // cpp-httplib sets SO_REUSEPORT by default, which lets a second `halma web --port N` listen
    // on the same port beside the first, the kernel handing each request to either one (whose
    // token the page may not hold). SO_REUSEADDR alone still lets a restart take the port back
    // from connections in TIME_WAIT, and refuses a port someone listens on.
    impl_->server.set_socket_options([](socket_t sock) {
        int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
}

WebServer::~WebServer() = default;

bool WebServer::bind(std::string& why) {
    int port = settings_.port;
    bool ok = false;
    if (port == 0 && settings_.preferred_port > 0
        && impl_->server.bind_to_port(kLoopback, settings_.preferred_port)) {
        port = settings_.preferred_port;
        ok = true;
    } else {
        ok = port == 0 ? (port = impl_->server.bind_to_any_port(kLoopback)) > 0
                       : impl_->server.bind_to_port(kLoopback, port);
    }
    if (!ok) {
        why = "cannot listen on " + std::string(kLoopback) + ":" + std::to_string(settings_.port)
            + " (in use? pick another with --port)";
        return false;
    }
    impl_->guard = std::make_unique<WebGuard>(token_, port);
    add_routes();
    return true;
}

int WebServer::port() const {
    return impl_->guard ? impl_->guard->port() : 0;
}

void WebServer::add_routes() {
    auto& server = impl_->server;
    const WebGuard& guard = *impl_->guard;
    server.set_pre_routing_handler([&guard](const httplib::Request& req, httplib::Response& res) {
        std::string why = guard.refuse_reason(facts_of(req));
        if (why.empty()) return httplib::Server::HandlerResponse::Unhandled;
        res.status = 403;
        res.set_content("halma web: " + why + "\n", "text/plain; charset=utf-8");
        return httplib::Server::HandlerResponse::Handled;
    });
    server.set_post_routing_handler([](const httplib::Request&, httplib::Response& res) {
        // Only the page's own files run: a name or chat line that got into the HTML by mistake
        // still could not execute. No referrer, so the token never leaves in a Referer header.
        res.set_header("Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
            "form-action 'self'");
        res.set_header("X-Content-Type-Options", "nosniff");
        res.set_header("Referrer-Policy", "no-referrer");
        res.set_header("Cache-Control", "no-store");
    });
    server.Get("/", [&guard](const httplib::Request&, httplib::Response& res) {
        res.set_header("Set-Cookie", guard.cookie());
        res.set_content(std::string(*static_file("/index.html")), mime_of(".html"));
    });
    server.Get("/api/events", [this](const httplib::Request&, httplib::Response& res) {
        auto stream = std::make_shared<EventStream>(settings_.runtime_dir);
        res.set_header("X-Accel-Buffering", "no");
        res.set_chunked_content_provider(
            "text/event-stream", [this, stream](std::size_t, httplib::DataSink& sink) {
                if (impl_->stopping) return false;
                std::string news = stream->next(std::chrono::seconds(1));
                // A comment line when there is no news: a closed tab is noticed by the failed
                // write.
                if (news.empty()) news = ": idle\n\n";
                return sink.is_writable() && sink.write(news.data(), news.size());
            });
    });
    server.Post(R"(/api/(\w+))", [this](const httplib::Request& req, httplib::Response& res) {
        auto answer
            = bridge_request(req.matches[1], req.body, settings_.runtime_dir, settings_.timeout);
        res.status = answer.http_status;
        res.set_content(answer.json, "application/json");
    });
    server.Get(R"(/(.+))", [](const httplib::Request& req, httplib::Response& res) {
        auto file = static_file(req.path);
        if (!file) {
            res.status = 404;
            res.set_content("not found\n", "text/plain");
            return;
        }
        res.set_content(std::string(*file), mime_of(req.path));
    });
}

void WebServer::run() {
    impl_->server.listen_after_bind();
}

void WebServer::stop() {
    impl_->stopping = true;
    impl_->server.stop();
}

} // namespace halma::web
