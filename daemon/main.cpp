// halmad: hosts and joins halma rooms on the LAN and serves the local front ends.
// Everything is in halmad_core (daemon/net/); this only reads the config and runs it.
#include "daemon/net/config.h"
#include "daemon/net/daemon.h"

int main(int argc, char** argv) {
    auto config = halma::daemon::load_config(argc, argv);
    if (auto* code = std::get_if<int>(&config)) return *code;
    const auto& c = std::get<halma::daemon::Config>(config);
    if (c.check_only) return 0;
    return halma::daemon::run_daemon(c);
}
