#include "cli/client/lan_addresses.h"

#include <algorithm>
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

namespace halma::cli {

std::vector<std::string> lan_ipv4_addresses(std::size_t most) {
    std::vector<std::string> out;
    ifaddrs* all = nullptr;
    if (getifaddrs(&all) != 0) return out;
    for (ifaddrs* i = all; i && out.size() < most; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET) continue;
        if (!(i->ifa_flags & IFF_UP) || (i->ifa_flags & IFF_LOOPBACK)) continue;
        char text[INET_ADDRSTRLEN] = {};
        const auto* in = reinterpret_cast<const sockaddr_in*>(i->ifa_addr);
        if (!inet_ntop(AF_INET, &in->sin_addr, text, sizeof text)) continue;
        // One machine may have an address on two interfaces (a bridge and its port).
        if (std::find(out.begin(), out.end(), text) == out.end()) out.emplace_back(text);
    }
    freeifaddrs(all);
    return out;
}

} // namespace halma::cli
