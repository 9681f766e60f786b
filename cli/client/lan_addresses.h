// This machine's addresses on its networks, for a join command that works where a machine's
// name does not: multicast blocked (no mDNS name), or no avahi at all.
#pragma once

#include <string>
#include <vector>

namespace halma::cli {

// The IPv4 addresses of this machine's interfaces that are up, loopback left out, in the
// kernel's order; at most `most`.
std::vector<std::string> lan_ipv4_addresses(std::size_t most);

} // namespace halma::cli
