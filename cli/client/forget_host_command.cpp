// `halma forget-host HOST:PORT`: the way out when a host's key changed for a good reason (its
// owner reinstalled it): the daemon forgets the key it pinned (trust on first use), and the next
// join there pins the new one. docs/protocol.md "Encrypted links".
#include "cli/client/client_common.h"
#include "cli/commands.h"

#include <iostream>
#include <string>

namespace halma::cli {

void add_forget_host_command(CLI::App& app, int& exit_code) {
    static std::string address;
    auto* cmd = app.add_subcommand("forget-host",
        "Forget the key pinned for a host (after its owner reset it): the next join pins anew");
    cmd->add_option("address", address, "host:port as it was joined, e.g. 192.168.1.20:7460")
        ->required();
    cmd->callback([&] {
        auto daemon = connect_daemon();
        pb::Request r;
        r.mutable_forget_host()->set_address(address);
        if (auto reply = ask(daemon, r, exit_code)) std::cout << reply->done().detail() << "\n";
    });
}

} // namespace halma::cli
