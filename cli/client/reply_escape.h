// The CLI prints what its daemon passes on from hosts on the LAN (names, chat, room names,
// messages), and a hostile host, or a daemon that let something through, must not be able to
// drive the user's terminal with it (window titles, colours, cursor moves, bidi overrides). So
// every string of every reply is made printable once, as it arrives, whatever prints it later.
#pragma once

#include <google/protobuf/message.h>
#include <string>
#include <string_view>

namespace halma::cli {

// The text with each control character (C0 but tab, DEL, C1, and the bidi controls U+061C,
// U+200E/F, U+202A-E, U+2066-9) shown as an escape, "\x1b" or "\u202e", and bytes that are not
// UTF-8 as "\xNN": nothing in it does anything to a terminal.
std::string printable(std::string_view text);

// Every string field of `message`, nested messages and repeated fields included, made printable.
void make_printable(google::protobuf::Message& message);

} // namespace halma::cli
