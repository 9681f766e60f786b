// How others join a room, as the play screen says it: the command to type (`halma join
// HOST:PORT/ROOM`, the code in place of the name for a friends room), laid out whole in whatever
// width the window leaves, and a friends code broken only where a reader can tell it goes on.
#pragma once

#include "halma/v1/api.pb.h"

#include <string>
#include <vector>

namespace halma::cli {

// A friends room with its code: joined by the code, not the name.
bool has_code(const ::halma::v1::RoomSummary& summary);

// The command others type to join the room: the host's address (a wildcard host made this
// machine's name) and the room's name, or a friends room's code, quoted for a shell.
std::string join_command(const ::halma::v1::RoomSummary& summary);

// "Others join ... with:" and `command` laid out for `width` columns, whole: on one line when it
// fits; else its argument on a line of its own after a backslash, which a shell pasted into
// reads as one command; else (a window too narrow for the argument) in pieces, saying so.
// Nothing for an empty command.
std::vector<std::string> join_lines(const std::string& command, bool friends, int width);

// "friends code: CODE" in lines of `width`, broken only after the code's dashes.
std::vector<std::string> code_lines(const std::string& code, int width);

} // namespace halma::cli
