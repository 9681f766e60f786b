#include "cli/client/name_lookup.h"

#include <algorithm>
#include <cctype>
#include <netdb.h>
#include <sys/socket.h>

namespace halma::cli {

namespace {

bool ends_with_ignoring_case(std::string text, const std::string& tail) {
    std::transform(text.begin(), text.end(), text.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (text.ends_with('.')) text.pop_back();
    return text.ends_with(tail);
}

} // namespace

std::optional<std::string> name_not_found(const std::string& name) {
    if (name.empty()) return std::nullopt;
    addrinfo hints {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    int rc = getaddrinfo(name.c_str(), nullptr, &hints, &found);
    if (rc == 0) {
        freeaddrinfo(found);
        return std::nullopt;
    }
    // A .local name is answered by mDNS only: where multicast does not get through (some Wi-Fi,
    // a VPN) it does not resolve even when the machine is there and right.
    std::string local_note = ends_with_ignoring_case(name, ".local")
        ? " (a .local name resolves only where mDNS gets through: if that machine is on the LAN, "
          "join it by the address `halma host` printed there)"
        : "";
    switch (rc) {
    case EAI_NONAME:
#ifdef EAI_NODATA
    case EAI_NODATA: // the name is known, with no address: as good as not found for a connect
#endif
#ifdef EAI_ADDRFAMILY
    case EAI_ADDRFAMILY:
#endif
        return "no machine called " + name
            + " is known: the name does not resolve. Is it misspelt? `halma rooms` lists the "
              "LAN's rooms with their hosts' names"
            + local_note;
    case EAI_AGAIN:
    case EAI_FAIL:
        return "the name " + name + " could not be looked up (" + gai_strerror(rc)
            + "): is this machine on the network? A machine's address (such as 192.168.1.20) "
              "needs no lookup"
            + local_note;
    default:
        return std::nullopt;
    }
}

} // namespace halma::cli
