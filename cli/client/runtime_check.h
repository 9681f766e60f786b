// Whether the local daemon's socket can be trusted before anything is said to it: another local
// user who made the runtime directory (or can write into it) could put a socket of its own there,
// read what a player sends and feed it made-up answers. docs/api.md ("Where the socket is").
#pragma once

#include <optional>
#include <string>

namespace halma::cli {

// The problem with `dir` and its api.sock, for a "halma: ..." message; nullopt if they are
// safe to use. Accepted: a real directory (not a symlink) owned by this user, by root or by the
// system user `halma` (the Debian service's RuntimeDirectory=), writable by nobody else; in it, a
// socket owned by one of the same and not writable by others (the service's is 0660 for its
// group). A missing socket is not a problem here: the caller says no daemon is running.
std::optional<std::string> runtime_dir_problem(const std::string& dir);

} // namespace halma::cli
