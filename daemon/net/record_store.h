// The records of the games finished in the rooms this daemon hosts (engine/game_record.h), one
// text file each in STATE_DIR/records, named ROOM_ID-GAME.hrec and written atomically. They are
// kept apart from the rooms' logs so that a room's log restarts with each new game; past
// `records-kept` the oldest go. docs/records.md describes the files.
#pragma once

#include "daemon/net/durable_file.h"
#include "engine/game_record.h"
#include "engine/result.h"

#include <cstdint>
#include <deque>
#include <filesystem>
#include <list>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace halma::daemon {

struct RecordSummary {
    std::string id; // what `halma replay` takes: the room id's first 8 digits, '-', the game
    std::string room; // the room's name
    int game_number = 0;
    std::int64_t started_ms = 0;
    std::int64_t ended_ms = 0;
    std::string ending;
    std::vector<std::string> players; // by engine player
    std::vector<int> places;
    std::size_t moves = 0;
};

struct RecordListing {
    std::vector<RecordSummary> records; // oldest first
    std::vector<std::string> unreadable; // file names and why
};

// A record to write, for whoever writes it (the host hands it to its disk helper, disk_syncer.h,
// so the loop never creates a file): the file, its text, and the oldest records it pushes past
// the limit, to remove.
struct RecordWrite {
    std::filesystem::path file;
    std::string text;
    std::vector<std::filesystem::path> pruned;
};

class RecordStore {
public:
    RecordStore(std::filesystem::path state_dir, int keep);
    const std::filesystem::path& dir() const { return dir_; }

    // Writes the record (replacing one of the same room and game: the game's real end wins over
    // a record of an end a crash then lost), then prunes the oldest past the limit. With
    // Flush::kLater it is only in the kernel when this returns: the caller has file_of() and
    // dir() flushed. False when no record is kept (records-kept 0).
    engine::Result<bool> save(
        const std::string& room_id, const engine::GameRecord& record, Flush flush = Flush::kNow);
    // The same, left for the caller to carry out: the record is counted as kept from now on.
    // Nothing (and no error) when no record is kept. Past the limit, games only computers played
    // go first, oldest first, then the oldest of all. The directory is listed once, the first
    // time, so a game's end costs the same with a thousand records kept as with none.
    engine::Result<std::optional<RecordWrite>> prepare(
        const std::string& room_id, const engine::GameRecord& record);
    // Whether the file is among the records kept (false once the limit pushed it out), as far
    // as prepare() knows; true before it listed the directory.
    bool keeps(const std::filesystem::path& file) const {
        return !indexed_ || where_.contains(file.string());
    }
    // Whether a record of the game is there and reads (a power cut may leave an empty file).
    bool has(const std::string& room_id, int game_number) const;
    std::filesystem::path file_of(const std::string& room_id, int game_number) const;
    RecordListing list() const;
    // The text of the record `id` names (an id from list(), or its file's name).
    engine::Result<std::string> read(const std::string& id) const;

    // At start-up: lists the records kept (reading each one's players, so that games only
    // computers played go first however old the run that wrote them), and removes those past
    // the limit now (a limit lowered to free a card took effect at the next game's end only).
    // Returns how many went.
    engine::Result<std::size_t> index_and_prune();

private:
    engine::Result<bool> index();
    // The records past the limit, in the order they go, taken off the index.
    std::vector<std::filesystem::path> over_limit(const std::filesystem::path& keep_this);

    std::filesystem::path dir_;
    int keep_;
    // The records kept, oldest first (by file time when listed, then in the order written).
    bool indexed_ = false;
    std::list<std::filesystem::path> by_age_;
    std::unordered_map<std::string, std::list<std::filesystem::path>::iterator> where_;
    // Of those, the games only computers played that this run wrote, oldest first: past the
    // limit they go before any game a person played, so a room of computers starting a game
    // every few seconds costs the people's games at most the one record its newest game takes.
    // (Those from before a restart count as people's: nothing is read to tell them apart.)
    std::list<std::filesystem::path> computers_by_age_;
    // Files pushed past the limit lately, which the disk helper removes in its own time: a
    // listing made meanwhile leaves them out (the last kBeingRemovedKept of them).
    static constexpr std::size_t kBeingRemovedKept = 256;
    std::set<std::string> being_removed_;
    std::deque<std::string> removed_order_;
};

// "3f2a9c1b-12" for game 12 of room 3f2a9c1b...
std::string record_id(const std::string& room_id, int game_number);

} // namespace halma::daemon
