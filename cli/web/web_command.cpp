// `halma web`: serves the browser front end on 127.0.0.1 and opens it. Like the CLI, it is a
// front end of the local halmad and nothing more (docs/api.md).
#include "cli/client/client_common.h"
#include "cli/commands.h"
#include "cli/web/web_server.h"

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <pthread.h>
#include <thread>

namespace halma::cli {

namespace {

struct WebOptions {
    int port = 0;
    bool no_open = false;
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

    web::WebServer server({ runtime_dir, std::chrono::milliseconds(client.timeout_ms), o.port });
    std::string why;
    if (!server.bind(why)) {
        std::cerr << "halma web: " << why << "\n";
        return 1;
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
    web->callback([&exit_code] { exit_code = run_web(o); });
}

} // namespace halma::cli
