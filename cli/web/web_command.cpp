// `halma web`: serves the browser front end on 127.0.0.1 and opens it. Like the CLI, it is a
// front end of the local halmad and nothing more (docs/api.md).
#include "cli/client/client_common.h"
#include "cli/commands.h"
#include "cli/web/web_address_memory.h"
#include "cli/web/web_server.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <httplib.h>
#include <iostream>
#include <pthread.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace halma::cli {

namespace {

struct WebOptions {
    int port = 0;
    bool no_open = false;
    bool new_token = false;
};

void open_browser(const std::string& url) {
    // Only with a desktop to show it on; over ssh or on a Pi's console the printed URL is it.
    const char* x = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if (!(x && *x) && !(wayland && *wayland)) return;
    // The URL is made here of digits, hex and ":/?.=" only, so the shell sees no specials; `&`
    // lets xdg-open (which may wait for the browser) go on without us.
    std::string command = "xdg-open '" + url + "' >/dev/null 2>&1 &";
    if (std::system(command.c_str()) != 0)
        std::cerr << "halma web: could not run xdg-open; open the address above yourself\n";
}

// A halma web of this user's still serving the address kept (started in another terminal), as
// its page answers the kept token. A second server at a new address said the first's port "is
// taken now; pages open from then need the new address", of pages that still worked.
bool already_serving(int port, const std::string& token) {
    httplib::Client client("127.0.0.1", port);
    client.set_connection_timeout(std::chrono::seconds(1));
    client.set_read_timeout(std::chrono::seconds(2));
    auto res = client.Get("/?token=" + token);
    return res && res->status == 200 && res->body.find("<title>halma</title>") != std::string::npos;
}

int run_web(const WebOptions& o) {
    auto& client = client_options();
    std::string runtime_dir
        = client.runtime_dir.empty() ? default_runtime_dir() : client.runtime_dir;
    // Signals go to one waiting thread, which stops the server: the HTTP threads never see them.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    // The address served last, again: a page still open from then picks up by itself.
    auto kept = web::recall_web_address(runtime_dir);
    if (kept && already_serving(kept->port, kept->token)) {
        std::string url
            = "http://127.0.0.1:" + std::to_string(kept->port) + "/?token=" + kept->token;
        // Another port or a new token beside the running one served a second page, and the
        // running one kept the token --new-token was to turn away.
        if (o.new_token || (o.port != 0 && o.port != kept->port)) {
            std::cerr << "halma web: one is already running, at " << url << "; stop it first "
                      << "(Ctrl-C where it runs), then start this one\n";
            return 1;
        }
        std::cout << "halma web: already running, at " << url
                  << " (the halma web started before serves it; Ctrl-C there stops it)\n"
                  << std::flush;
        if (!o.no_open) open_browser(url);
        return 0;
    }
    auto last = o.new_token ? std::nullopt : kept;
    web::WebServer server({ runtime_dir, std::chrono::milliseconds(client.timeout_ms), o.port,
        last && o.port == 0 ? last->port : 0, last ? last->token : "" });
    std::string why;
    if (!server.bind(why)) {
        std::cerr << "halma web: " << why << "\n";
        return 1;
    }
    if (last && o.port == 0 && server.port() != last->port)
        std::cerr << "halma web: port " << last->port
                  << " (served last time) is taken by another program now; pages open from then "
                     "need the new address\n";
    // Kept only in a directory of our own: without one (no halmad has run yet), or in the
    // service's (root's, which its group may read but not write), the next address is new.
    struct stat dir { };
    if (stat(runtime_dir.c_str(), &dir) == 0 && S_ISDIR(dir.st_mode) && dir.st_uid == getuid()) {
        auto problem = web::remember_web_address(runtime_dir, { server.port(), server.token() });
        if (!problem.empty())
            std::cerr << "halma web: " << problem << "; the next halma web will have another "
                      << "address\n";
    }
    std::string url
        = "http://127.0.0.1:" + std::to_string(server.port()) + "/?token=" + server.token();
    std::cout << "halma web: " << url << "\n" << std::flush;
    if (!std::filesystem::exists(runtime_dir + "/api.sock"))
        std::cerr << "halma web: no halmad is running in " << runtime_dir
                  << " yet; the page waits for one (start it with `halmad &`)\n";
    if (!o.no_open) open_browser(url);
    std::thread waiter([&server, stop_signals] {
        int signal = 0;
        sigwait(&stop_signals, &signal);
        server.stop();
    });
    waiter.detach();
    server.run();
    return 0;
}

} // namespace

void add_web_command(CLI::App& app, int& exit_code) {
    static WebOptions o;
    auto* web
        = app.add_subcommand("web", "Play in the browser: serve the page on 127.0.0.1 and open it");
    web->add_option("--port", o.port, "Port on 127.0.0.1 (default: any free one)")
        ->check(CLI::Range(0, 65535));
    web->add_flag("--no-open", o.no_open, "Only print the address; do not start a browser");
    web->add_flag("--new-token", o.new_token,
        "Serve under a new secret address: pages and bookmarks of the old one are refused "
        "(by default the address of the last halma web is kept, so an open page picks up again)");
    web->callback([&exit_code] { exit_code = run_web(o); });
}

} // namespace halma::cli
