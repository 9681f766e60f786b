// A finished game as text other programs can read: "halma-record 1", a PGN-like header of tag
// pairs (setup, players, dates, result, why it ended) and then every move in halma's notation
// with its full hop path. docs/records.md is the format's definition; this is its only writer
// and reader. Pure: the daemon stores the text, the CLI shows it.
#pragma once

#include "game.h"
#include "result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace halma::engine {

inline constexpr std::string_view kRecordFormat = "halma-record 1";

struct RecordPlayer {
    std::string name;
    int seat = 0; // the room's seat, from 1
    std::string kind = "human"; // "human", "bot easy", "bot hard" or "bot max"
};

struct GameRecord {
    std::string room; // the room's name
    int game_number = 1; // within the room
    std::int64_t started_ms = 0; // Unix time
    std::int64_t ended_ms = 0;
    GameSetup setup;
    SetId first_set = 0; // the set that moved first
    std::vector<RecordPlayer> players; // by engine player: player 1 plays setup.sets_of(0)
    // Each move the players chose, in order, as its full hop path (a pass is empty); the
    // automatic passes of finished sets are not listed (the game makes them again).
    std::vector<std::vector<Cell>> moves;
    std::vector<int> places; // per engine player: 1 = first, 0 = not decided
    // "all home", "places decided", "move limit", "stalled", "cancelled" (by a vote while a
    // player was gone), "restarted" (every player voted for a new game during this one) or
    // "room closed" (its host closed the room while it was being played: places all 0).
    std::string ending;
};

// The reason a game that is over ended, in the words Ending uses.
std::string_view ending_name(GameEnd end);

// The record's text (ends with a newline).
std::string format_record(const GameRecord& record);
// Reads a record: every tag checked, every move played through the engine from the setup, so a
// record that parses replays. Errors name the line and what is wrong. Without `replay`, each move
// is only read as a path (a listing of many records needs no more).
Result<GameRecord> parse_record(std::string_view text, bool replay = true);
// The game at its start, ready for the record's moves.
Result<Game> start_of(const GameRecord& record);
// "2026-11-23T06:12:00Z" and back (UTC, whole seconds).
std::string iso_time(std::int64_t unix_ms);
Result<std::int64_t> parse_iso_time(std::string_view text);

} // namespace halma::engine
