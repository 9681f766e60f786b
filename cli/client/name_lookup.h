// Whether a machine's name resolves, asked of this machine's resolver by the CLI: the daemon's
// links (ZeroMQ) say a name that does not resolve was a refused connection, and the daemon's loop
// never waits on a lookup (DNS or mDNS may take seconds), so the CLI, which may, tells them apart.
#pragma once

#include <optional>
#include <string>

namespace halma::cli {

// Why no machine can be found by `name` ("no machine called NAME is known ..."), or nothing when
// it resolves, or when the resolver's answer says nothing of the name (it is then not doubted).
// Blocks for as long as the resolver takes.
std::optional<std::string> name_not_found(const std::string& name);

} // namespace halma::cli
