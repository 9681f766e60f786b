// How the client commands print: one JSON object per answer with --json (the protobuf field
// names of docs/api.md), otherwise short text for a person.
#pragma once

#include "halma/v1/api.pb.h"

#include <google/protobuf/message.h>
#include <string>
#include <vector>

namespace halma::cli {

std::string to_json(const google::protobuf::Message& message);

std::string format_daemon_status(const ::halma::v1::DaemonStatus& status);
std::string format_rooms(const ::halma::v1::RoomList& rooms);
// Whose turn, who leads, the seats with their colours, votes, the standings when decided.
std::string format_room_status(const ::halma::v1::RoomView& view, bool colour);
std::string phase_name(::halma::v1::Phase phase);
// How the next game comes, after one ended or was cancelled, as the room stands: by itself where
// only computers sit (nobody there can vote), else by the votes of the players present (`vote`
// is how this front end says to cast one: "halma vote new", "/vote new"), which a spectator
// cannot cast.
std::string next_game_words(const ::halma::v1::RoomView& view, const std::string& vote);
// Who won a finished game: "winner: ann", or for a shared first place "draw: ann and bob share
// first place" (docs/rules.md); the viewer as "you" ("you won", "draw: you and bob share first
// place"); empty while nobody has placed first.
std::string winner_words(const ::halma::v1::RoomView& view);
std::string connection_name(::halma::v1::ConnectionState state);
// The time left on a turn of a room with a turn limit, "45 s" or "2:05" (or "1:02:05");
// empty when the view carries none.
std::string time_left_words(const ::halma::v1::RoomView& view);
// A span of time as the screens count it down: "45 s", "1:05", "1:00:05" (rounded up).
std::string duration_words(std::uint32_t ms);
// A gone person's seat: how long it is still held for them ("1:45"); empty when not known.
std::string hold_left_words(const ::halma::v1::SeatView& seat);
// Who leads a game being played: "ann", or those level at the front, "mum and kid (level)", or
// "nobody yet (all level)" (it said "nobody (level)" of two level ahead of a third). More level
// than `names_at_most` are counted, not named: "4 players (level)".
std::string leader_words(const ::halma::v1::RoomView& view, std::size_t names_at_most = 6);
// An open take-back vote's matter: "take back ann's o1-m7 and the move after it" ("your" for
// the viewer's own).
std::string take_back_words(const ::halma::v1::RoomView& view);
// What a computer played for the viewer while they were away: "the computer played o1-m7 for
// you" ("played 12 moves for you, the last m7-k7, ..."); empty when it played none.
std::string moves_made_for_you_words(const ::halma::v1::RoomView& view);
// The votes open in the room, a line each, as every text front end says them: "* vote to hide
// the leader: voted bob; not yet you, cat; to agree: /vote leader". Who has not voted yet are
// the players present (as the host counts them: a computer always agrees; one gone or away does
// not hold the vote up); how to agree (`how` is this front end's verb: "halma vote", "/vote")
// only to a seated player yet to vote. Empty when no vote is open.
std::vector<std::string> open_vote_lines(const ::halma::v1::RoomView& view, const std::string& how);

} // namespace halma::cli
