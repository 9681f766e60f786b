// A host's address as a person types it (HOST, HOST:PORT, [IPV6] or [IPV6]:PORT), checked for
// what the CLI can tell is wrong without asking anyone: said as a usage error (exit 2), where the
// daemon's refusal of it was an exit 1 that read like a host out of reach.
#pragma once

#include <optional>
#include <string>

namespace halma::cli {

// Why `address` cannot be a host's address ("there is no host before the :17481"), or nothing
// when it may be one: whether a machine of that name answers there is for the daemon to find.
std::optional<std::string> host_address_problem(const std::string& address);

} // namespace halma::cli
