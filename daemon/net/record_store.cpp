#include "daemon/net/record_store.h"

#include "daemon/net/durable_file.h"
#include "daemon/net/runtime_dir.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <system_error>
#include <tuple>

namespace halma::daemon {

namespace {

constexpr std::string_view kSuffix = ".hrec";

bool is_record_file(const std::filesystem::path& p) {
    return p.extension() == kSuffix && p.filename().string().size() > kSuffix.size();
}

// Only hex digits, digits and '-': an id can never name a path outside the directory.
bool plain_id(const std::string& id) {
    return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](unsigned char c) {
        return std::isxdigit(c) || c == '-';
    });
}

// ROOM_ID-GAME of a file's name, split; {"", 0} when it is not one.
std::pair<std::string, int> parts_of(const std::string& stem) {
    auto dash = stem.rfind('-');
    if (dash == std::string::npos || dash == 0 || dash + 1 == stem.size()) return { "", 0 };
    std::string game = stem.substr(dash + 1);
    if (game.size() > 9 || !std::all_of(game.begin(), game.end(), ::isdigit)) return { "", 0 };
    return { stem.substr(0, dash), std::stoi(game) };
}

std::vector<std::filesystem::directory_entry> record_files(const std::filesystem::path& dir) {
    std::vector<std::filesystem::directory_entry> out;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (is_record_file(it->path())) out.push_back(*it);
    return out;
}

// Whether only computers played the recorded game: every PlayerNKind tag says "bot ...".
// Read once per record, at start-up; a record that cannot be read counts as people's (kept).
bool computers_only(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string line;
    int kinds = 0;
    while (std::getline(in, line) && !line.empty() && line.front() == '[') {
        auto kind = line.find("Kind \"");
        if (line.rfind("[Player", 0) != 0 || kind == std::string::npos) continue;
        ++kinds;
        if (line.compare(kind + 6, 3, "bot") != 0) return false;
    }
    return kinds > 0;
}

} // namespace

std::string record_id(const std::string& room_id, int game_number) {
    return room_id.substr(0, 8) + "-" + std::to_string(game_number);
}

RecordStore::RecordStore(std::filesystem::path state_dir, int keep)
    : dir_(std::move(state_dir) / "records")
    , keep_(keep) { }

std::filesystem::path RecordStore::file_of(const std::string& room_id, int game_number) const {
    return dir_ / (room_id + "-" + std::to_string(game_number) + std::string(kSuffix));
}

engine::Result<bool> RecordStore::index() {
    if (indexed_) return true;
    if (auto made = make_private_dir(dir_.parent_path()); !made) return made;
    if (auto made = make_private_dir(dir_); !made) return made;
    // Oldest first: written once, when its game ended, so the time it was written is its age.
    std::error_code ec;
    std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> found;
    for (const auto& f : record_files(dir_)) found.emplace_back(f.last_write_time(ec), f.path());
    // A record being written when halmad was killed left its ROOM-GAME.hrec.tmp, which nothing
    // else removes (none of this run's is written before this first look).
    for (std::filesystem::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().string().ends_with(std::string(kSuffix) + ".tmp"))
            std::filesystem::remove(it->path(), ec);
    std::sort(found.begin(), found.end());
    for (auto& [time, path] : found) {
        if (computers_only(path)) computers_by_age_.push_back(path);
        by_age_.push_back(std::move(path));
        where_[by_age_.back().string()] = std::prev(by_age_.end());
    }
    indexed_ = true;
    return true;
}

engine::Result<std::size_t> RecordStore::index_and_prune() {
    if (keep_ == 0) return 0;
    if (auto listed = index(); !listed) return std::unexpected(listed.error());
    std::size_t gone = 0;
    for (const auto& file : over_limit({})) {
        std::error_code ec;
        if (std::filesystem::remove(file, ec)) ++gone;
    }
    return gone;
}

std::vector<std::filesystem::path> RecordStore::over_limit(const std::filesystem::path& keep_this) {
    std::vector<std::filesystem::path> out;
    while (by_age_.size() > static_cast<std::size_t>(keep_)) {
        // The oldest computers' game but `keep_this` (the one just played: that would keep
        // none), else the oldest of all.
        auto oldest = by_age_.begin();
        if (!computers_by_age_.empty() && computers_by_age_.front() != keep_this) {
            oldest = where_.at(computers_by_age_.front().string());
            computers_by_age_.pop_front();
        } else if (!computers_by_age_.empty() && *oldest == computers_by_age_.front()) {
            computers_by_age_.pop_front();
        }
        where_.erase(oldest->string());
        being_removed_.insert(oldest->string());
        removed_order_.push_back(oldest->string());
        if (removed_order_.size() > kBeingRemovedKept) {
            being_removed_.erase(removed_order_.front());
            removed_order_.pop_front();
        }
        out.push_back(std::move(*oldest));
        by_age_.erase(oldest);
    }
    return out;
}

engine::Result<std::optional<RecordWrite>> RecordStore::prepare(
    const std::string& room_id, const engine::GameRecord& record) {
    if (keep_ == 0) return std::nullopt;
    if (auto listed = index(); !listed) return std::unexpected(listed.error());
    RecordWrite out { file_of(room_id, record.game_number), engine::format_record(record), {} };
    // A record written again (its game's real end) is the newest now.
    if (auto it = where_.find(out.file.string()); it != where_.end()) {
        by_age_.erase(it->second);
        where_.erase(it);
        computers_by_age_.remove(out.file);
    }
    bool computers_only = std::all_of(record.players.begin(), record.players.end(),
        [](const engine::RecordPlayer& p) { return p.kind.starts_with("bot"); });
    by_age_.push_back(out.file);
    where_[out.file.string()] = std::prev(by_age_.end());
    being_removed_.erase(out.file.string()); // kept again (its removal, if still due, waits)
    if (computers_only) computers_by_age_.push_back(out.file);
    out.pruned = over_limit(out.file);
    return out;
}

engine::Result<bool> RecordStore::save(
    const std::string& room_id, const engine::GameRecord& record, Flush flush) {
    auto prepared = prepare(room_id, record);
    if (!prepared) return std::unexpected(prepared.error());
    if (!*prepared) return false;
    auto written = write_file_atomically((*prepared)->file, (*prepared)->text, flush);
    if (!written) return written;
    std::error_code ec;
    for (const auto& old : (*prepared)->pruned) std::filesystem::remove(old, ec);
    return true;
}

bool RecordStore::has(const std::string& room_id, int game_number) const {
    auto text = read_whole_file(file_of(room_id, game_number));
    return text && engine::parse_record(*text, false).has_value();
}

RecordListing RecordStore::list() const {
    RecordListing out;
    for (const auto& f : record_files(dir_)) {
        // One past the limit is being removed by the disk helper meanwhile: no record, and no
        // "unreadable record ...: No such file or directory" either (a soak test saw one listing
        // in three say so beside rooms of bots pruning theirs).
        if (being_removed_.contains(f.path().string())) continue;
        std::string name = f.path().filename().string();
        auto [room_id, game] = parts_of(f.path().stem().string());
        auto text = read_whole_file(f.path());
        std::error_code ec;
        if (!text && !std::filesystem::exists(f.path(), ec)) continue; // removed just now
        // The header and the moves' paths: replaying a thousand records would hold the loop up.
        auto record = text ? engine::parse_record(*text, false)
                           : engine::Result<engine::GameRecord>(std::unexpected(text.error()));
        if (room_id.empty() || !record) {
            out.unreadable.push_back(
                name + ": " + (record ? "not named ROOM-GAME.hrec" : record.error().message));
            continue;
        }
        RecordSummary s { record_id(room_id, game), record->room, record->game_number,
            record->started_ms, record->ended_ms, record->ending, {}, record->places,
            record->moves.size() };
        for (const auto& p : record->players) s.players.push_back(p.name);
        out.records.push_back(std::move(s));
    }
    std::sort(out.records.begin(), out.records.end(), [](const auto& a, const auto& b) {
        return std::tie(a.ended_ms, a.id) < std::tie(b.ended_ms, b.id);
    });
    return out;
}

engine::Result<std::string> RecordStore::read(const std::string& wanted) const {
    std::string id = wanted;
    if (id.size() > kSuffix.size() && id.ends_with(kSuffix)) id.resize(id.size() - kSuffix.size());
    auto [prefix, game] = parts_of(id);
    if (!plain_id(id) || prefix.empty())
        return engine::fail("\"" + wanted
            + "\" is not a record id (like 3f2a9c1b-12: see `halma "
              "records`)");
    std::vector<std::filesystem::path> found;
    for (const auto& f : record_files(dir_)) {
        auto [room_id, g] = parts_of(f.path().stem().string());
        if (g == game && room_id.starts_with(prefix)) found.push_back(f.path());
    }
    // A guest looking for a game played at another's room: the host of each room keeps its
    // records (`halma records` there said so; asked for one, this said only "see").
    if (found.empty())
        return engine::fail("no record " + wanted
            + " here (see `halma records`; each game's record is kept by the halmad that hosted "
              "its room)");
    if (found.size() > 1)
        return engine::fail("record id " + wanted + " fits " + std::to_string(found.size())
            + " records: give more of the room id");
    auto text = read_whole_file(found.front());
    if (!text) return text;
    // A damaged file is said so, not sent as it is: its bytes went to the terminal raw (escape
    // sequences and all), with exit 0.
    if (auto record = engine::parse_record(*text); !record)
        return engine::fail("record " + wanted + " is damaged (" + found.front().string()
            + "): " + record.error().message);
    return text;
}

} // namespace halma::daemon
