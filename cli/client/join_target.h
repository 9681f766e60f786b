// Where a player asks to join, as they type it: NAME or CODE (hosted here, or found on the LAN),
// HOST[:PORT]/ROOM, or HOST:PORT (that host's only public room). One reading for `halma join`
// and halma play's room list, which took "127.0.0.1:7460" for a room's name.
#pragma once

#include "halma/v1/api.pb.h"

#include <expected>
#include <string>

namespace halma::cli {

// The join request's address and room for `target`, or why it cannot be one ("'/den' has no
// host before the /"): the user's typing, said before any daemon is asked.
std::expected<::halma::v1::JoinRequest, std::string> parse_join_target(const std::string& target);

// A join request's target as it is typed back: NAME, HOST:PORT/ROOM or HOST:PORT.
std::string join_target_text(const ::halma::v1::JoinRequest& join);

} // namespace halma::cli
