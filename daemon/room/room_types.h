// The plain C++ words the daemon's room logic speaks: rooms, modes, members, refusals.
// No protobuf or ZeroMQ here (Mosh layering): the network edge translates at the boundary.
#pragma once

#include "engine/game.h"
#include "engine/rules.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace halma::daemon {

using MemberId = std::uint32_t;
inline constexpr MemberId kNoMember = 0;
inline constexpr int kNoSeat = -1;

// A seat a computer plays for a person whose daemon vanished past the hold, kept for that
// person: their seat token takes it back. The host keeps these with the members' tokens, so
// that "plays seat 3 until they are back" holds across its restart too.
struct KeptSeat {
    MemberId gone = kNoMember;
    std::string token;
    bool operator==(const KeptSeat&) const = default;
};

// The engine's default: a game still running after this many moves per player ends on distance.
inline constexpr int kDefaultMoveLimit = 1000;
// The longest texts a room holds, in bytes: what a host takes from its members and what a peer
// takes from a host (docs/protocol.md, "Limits").
inline constexpr std::size_t kMaxMemberName = 32;
inline constexpr std::size_t kMaxChatText = 500;
inline constexpr std::size_t kMaxRoomName = 40;
inline constexpr int kMaxMoveLimit = 100'000;
// A room where only computer players sit starts its next game by itself this long after a game
// ends (bots do not vote): long enough for spectators to see how it ended.
inline constexpr int kDefaultNextGameMs = 5000;
// Spectators a room holds at once: enough for an office watching a final; a bound on what joins
// can make the room (and every snapshot of it) grow to. A replica holds its host to it too: a
// host's joins past it are events that do not apply (a replica took 200,000 of them, 590 bytes
// each).
inline constexpr int kMaxSpectators = 64;
// The longest turn limit a room may set: a day (a correspondence game on the office's Pi).
inline constexpr int kMaxTurnLimitS = 86'400;
inline constexpr int kMaxNextGameMs = 3'600'000;

enum class Visibility { kPublic, kFriends };
enum class VoteKind { kNewGame, kCancel, kLeader, kTakeBack };
inline constexpr std::size_t kVoteKindNB = 4;
enum class Phase { kWaiting, kPlaying, kOver, kCancelled, kClosed };
// How well a computer player in a seat plays (the bots themselves live in engine/ai). Max is
// the hard bot thinking about 3 s a move (ai::kMaxLevelBudgetMs): a slower room.
enum class BotLevel { kEasy, kHard, kMax };

// "easy" / "hard" / "max": the spelling of configs, the CLI and the wire.
std::optional<BotLevel> parse_bot_level(std::string_view name);
std::string_view bot_level_name(BotLevel level);

struct RoomMode {
    int players = 2;
    int sets_per_player = 1;
    engine::Rules rules;
    int move_limit = kDefaultMoveLimit;
    // Views leave out who leads until the game ends (a choice of the room, not of the engine).
    bool hide_leader = false;
    // The pause before a room of computer players only starts its next game; rooms with a person
    // in a seat wait for their votes instead.
    int next_game_ms = kDefaultNextGameMs;
    // Seconds a person has for a turn; 0: no limit. Past it a computer moves for them and they
    // count as away (a player who walked off, or one who will not move, holds nobody up).
    int turn_limit_s = 0;

    engine::GameSetup setup() const;
    // Why this mode cannot be played, in words; nullopt if it can.
    std::optional<std::string> invalid() const;
    friend bool operator==(const RoomMode&, const RoomMode&) = default;
};

struct RoomConfig {
    std::string room_id; // 128 random bits, hex
    std::string name;
    Visibility visibility = Visibility::kPublic;
    std::string code; // friends rooms only
    RoomMode mode;
    // The seats given to computers as the room was made (a standing room's `bots`, `halma host
    // --bots`): its setup, unlike the computers seated later by a start or standing in for a
    // player gone. Unknown in a room made before this was kept.
    std::optional<int> bots;
};

// Why the host refused something; the code lets a front end react without parsing text.
struct Refusal {
    enum class Code {
        kUnknownRoom,
        kNotAllowed,
        kNotYourTurn,
        kIllegalMove,
        kRoomFull,
        kBadRequest,
        kUnavailable // not now, try again later (the host's disk cannot take the room's events)
    };
    Code code;
    std::string message;
};

// Both clocks the room needs: steady time for holds, wall time stamped on events.
struct Now {
    std::chrono::steady_clock::time_point steady;
    std::int64_t wall_ms = 0;
    static Now current();
    // The steady clock in ms (CLOCK_MONOTONIC: one clock for every process of the machine), the
    // clock request deadlines are given in.
    std::uint64_t monotonic_ms() const {
        return static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::milliseconds>(steady.time_since_epoch())
                .count());
    }
};

} // namespace halma::daemon
