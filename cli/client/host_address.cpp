#include "cli/client/host_address.h"

#include <algorithm>
#include <cctype>

namespace halma::cli {

namespace {

// "7460" as a port; why not, else.
std::optional<std::string> port_problem(const std::string& port) {
    if (port.empty()) return "there is no port after the ':' (the port is 1 to 65535)";
    bool digits = port.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || port.size() > 5 || std::stoi(port) < 1 || std::stoi(port) > 65535)
        return "the port is 1 to 65535, and '" + port + "' is not";
    return std::nullopt;
}

// A machine's name or an IPv4 address: letters, digits, '-', '.' and '_', or UTF-8 (an mDNS
// name may be "Anns-Läppi.local"). A space, a comma or a '*' is in no host's name.
std::optional<std::string> name_problem(const std::string& host) {
    auto odd = std::find_if(host.begin(), host.end(), [](char ch) {
        auto c = static_cast<unsigned char>(ch);
        return c < 0x80 && !std::isalnum(c) && c != '-' && c != '.' && c != '_';
    });
    if (odd == host.end()) return std::nullopt;
    std::string shown = *odd == ' ' ? std::string("a space") : "'" + std::string(1, *odd) + "'";
    return "'" + host + "' cannot be a host's name or address: it has " + shown;
}

} // namespace

std::optional<std::string> host_address_problem(const std::string& typed) {
    // The daemon takes ZeroMQ's spelling too.
    std::string address = typed.rfind("tcp://", 0) == 0 ? typed.substr(6) : typed;
    if (address.empty()) return "there is no host";
    if (address.front() == '[') {
        auto close = address.find(']');
        if (close == std::string::npos)
            return "an IPv6 address is written [ADDRESS]:PORT, and this one has no ]";
        if (close == 1) return "there is no address between [ and ]";
        std::string rest = address.substr(close + 1);
        if (rest.empty()) return std::nullopt; // the default port
        if (rest.front() != ':') return "after the ] comes :PORT or nothing";
        return port_problem(rest.substr(1));
    }
    auto colon = address.find(':');
    if (colon == std::string::npos) return name_problem(address); // the default port
    if (address.find(':', colon + 1) != std::string::npos)
        return "an IPv6 address goes in brackets, the port after them: [ADDRESS]:PORT";
    std::string host = address.substr(0, colon);
    // ":17481" went to the daemon, which refused it, and halma exited 1.
    if (host.empty())
        return "there is no host before the " + address
            + " (a machine's name or address, e.g. ann-laptop.local" + address + ")";
    if (auto why = port_problem(address.substr(colon + 1))) return why;
    return name_problem(host);
}

} // namespace halma::cli
