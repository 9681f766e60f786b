// A room's history as sequence-numbered events. The host creates them; the host and every replica
// change a room only by applying them, so the log alone rebuilds the room (and is what the host
// writes to disk to resume its rooms after a restart).
#pragma once

#include "daemon/room/room_types.h"
#include "engine/types.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace halma::daemon {

namespace event {
struct MemberJoined {
    MemberId member = kNoMember;
    std::string name;
    int seat = kNoSeat;
    bool bot = false;
    BotLevel bot_level = BotLevel::kHard; // for a bot: how well it plays
    // A computer standing in for a player who left mid-game for good: until the next game
    // starts, the next newcomer takes the seat over, so lists count the seat as free.
    bool seat_open = false;
};
struct MemberLeft {
    MemberId member = kNoMember;
    bool timed_out = false;
};
struct Connection {
    MemberId member = kNoMember;
    bool connected = false;
    std::uint32_t hold_ms = 0; // gone: how long the host holds the seat from here (0: not said)
};
struct Chat {
    MemberId member = kNoMember;
    std::string text;
};
struct GameStarted {
    int game_number = 0;
    engine::SetId first_set = 0;
    std::vector<int> seat_player; // engine player index of each seat
    bool end_when_stuck = false; // GameSetup::end_when_stuck: set in every game started now
};
struct MovePlayed {
    int seat = kNoSeat;
    engine::Move move = engine::Move::pass();
    std::vector<engine::Cell> path;
    // A computer moved for the seat's person, whose turn ran past the room's turn limit.
    bool by_computer = false;
};
struct VoteCast {
    MemberId member = kNoMember;
    VoteKind kind = VoteKind::kNewGame;
};
struct GameCancelled { };
// Everyone agreed to hide (or show) who is in the lead for the rest of this game.
struct LeaderDisplay {
    bool hidden = false;
};
// Everyone agreed to take back the last `count` moves of this game (entries of its history,
// automatic passes included): the asker's last own move and every move after it.
struct MovesTakenBack {
    std::uint32_t count = 0;
};
// The host closed the room for good: always its last event (a replica forgets the room).
struct RoomClosed { };
} // namespace event

using EventBody = std::variant<event::MemberJoined, event::MemberLeft, event::Connection,
    event::Chat, event::GameStarted, event::MovePlayed, event::VoteCast, event::GameCancelled,
    event::RoomClosed, event::LeaderDisplay, event::MovesTakenBack>;

struct RoomEvent {
    std::uint64_t seq = 0;
    std::int64_t time_ms = 0;
    EventBody body;
};

} // namespace halma::daemon
