#include "daemon/net/room_store.h"

#include "daemon/net/paired_file.h"
#include "daemon/net/runtime_dir.h"
#include "daemon/room/clean_text.h"
#include "daemon/wire/codec.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <zlib.h>

namespace halma::daemon {

namespace pb = wire::pb;

namespace {

constexpr std::size_t kHeader = 8;
// An event is a few hundred bytes at most (a 500-byte chat line is the largest); a length past
// this is damage, not an event.
constexpr std::uint32_t kMaxRecord = 64 * 1024;

std::uint32_t crc_of(std::string_view bytes) {
    return static_cast<std::uint32_t>(::crc32(::crc32(0L, Z_NULL, 0),
        reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

void put_u32(std::string& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

std::uint32_t get_u32(std::string_view bytes, std::size_t at) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
        v = (v << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
    return v;
}

bool is_room_id(const std::string& name) {
    return name.size() == 32 && std::all_of(name.begin(), name.end(), [](unsigned char c) {
        return std::isdigit(c) || (c >= 'a' && c <= 'f');
    });
}

// The members file, a few lines of text: "local MEMBER" (the host's own player, if in the
// room), "member MEMBER TOKEN" per member with a seat token, and "kept SEAT MEMBER TOKEN" per
// seat a computer keeps for a player whose daemon vanished (seats counted from 0).
std::string encode_members(const StoredMembers& m) {
    std::string out = "# seat tokens of this room's members: whoever has one acts for its member\n";
    if (m.local != kNoMember) out += "local " + std::to_string(m.local) + "\n";
    for (const auto& [id, token] : m.tokens)
        out += "member " + std::to_string(id) + " " + token + "\n";
    for (const auto& [seat, kept] : m.kept_seats)
        out += "kept " + std::to_string(seat) + " " + std::to_string(kept.gone) + " " + kept.token
            + "\n";
    return out;
}

engine::Result<StoredMembers> decode_members(const std::string& text) {
    StoredMembers m;
    std::istringstream lines(text);
    std::string line;
    for (int n = 1; std::getline(lines, line); ++n) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string kind, token, extra;
        long long id = 0, seat = 0;
        bool ok = static_cast<bool>(fields >> kind);
        if (ok && kind == "kept") ok = static_cast<bool>(fields >> seat) && seat >= 0 && seat < 6;
        ok = ok && static_cast<bool>(fields >> id) && id > 0 && id <= 0xffffffffLL;
        if (ok && kind == "local")
            ok = !(fields >> extra) && m.local == kNoMember;
        else if (ok && (kind == "member" || kind == "kept"))
            ok = static_cast<bool>(fields >> token) && !(fields >> extra) && is_room_id(token)
                && (kind == "member" ? m.tokens.emplace(static_cast<MemberId>(id), token).second
                                     : m.kept_seats
                                           .emplace(static_cast<int>(seat),
                                               KeptSeat { static_cast<MemberId>(id), token })
                                           .second);
        else
            ok = false;
        if (!ok) return engine::fail("members line " + std::to_string(n) + " is damaged");
        if (kind == "local") m.local = static_cast<MemberId>(id);
    }
    return m;
}

} // namespace

std::string encode_event_record(const RoomEvent& event) {
    pb::RoomEvent message;
    wire::to_proto(event, &message);
    std::string payload = message.SerializeAsString();
    std::string out;
    out.reserve(kHeader + payload.size());
    put_u32(out, static_cast<std::uint32_t>(payload.size()));
    put_u32(out, crc_of(payload));
    out += payload;
    return out;
}

// Whether a whole record (a sane length, its checksum right) starts anywhere in `bytes`: then a
// record before it that seems cut short was not the last write, but damage.
bool whole_record_in(std::string_view bytes) {
    for (std::size_t at = 0; at + kHeader < bytes.size(); ++at) {
        std::uint32_t length = get_u32(bytes, at);
        if (length == 0 || length > kMaxRecord || bytes.size() - at - kHeader < length) continue;
        if (crc_of(bytes.substr(at + kHeader, length)) == get_u32(bytes, at + 4)) return true;
    }
    return false;
}

engine::Result<EventLog> decode_event_log(std::string_view bytes) {
    EventLog log;
    std::size_t at = 0;
    while (at < bytes.size()) {
        std::size_t left = bytes.size() - at;
        std::string bad;
        bool reaches_end = true; // the bad record's bytes run to the end of the file
        std::uint32_t length = left >= kHeader ? get_u32(bytes, at) : 0;
        if (left < kHeader) {
            bad = "a record header cut short";
        } else if (length == 0 || length > kMaxRecord) {
            bad = "a record of impossible length " + std::to_string(length);
            reaches_end = false;
        } else if (left - kHeader < length) {
            bad = "a record cut short (" + std::to_string(left - kHeader) + " of "
                + std::to_string(length) + " bytes)";
            // Its length may be what is damaged, with whole records after it: not a torn
            // append (an append is torn only at its end), so the room is refused.
            reaches_end = !whole_record_in(bytes.substr(at + kHeader));
        } else {
            std::string_view payload = bytes.substr(at + kHeader, length);
            reaches_end = at + kHeader + length == bytes.size();
            pb::RoomEvent message;
            if (crc_of(payload) != get_u32(bytes, at + 4)) {
                bad = "a record whose checksum does not match";
            } else if (!message.ParseFromArray(payload.data(), static_cast<int>(payload.size()))) {
                bad = "a record that is not an event";
                reaches_end = false; // written whole (the checksum says so): not torn
            } else if (auto e = wire::event_from_proto(message); !e) {
                bad = "an event this daemon cannot read: " + e.error().message;
                reaches_end = false;
            } else {
                log.events.push_back(std::move(*e));
                at += kHeader + length;
                continue;
            }
        }
        // A crash while appending leaves a part of the last write, or (on some file systems)
        // zeros where the data did not reach the disk.
        bool zeros = std::all_of(bytes.begin() + static_cast<std::ptrdiff_t>(at), bytes.end(),
            [](char c) { return c == 0; });
        if (!reaches_end && !zeros)
            return engine::fail(bad + " at byte " + std::to_string(at) + ", after event "
                + std::to_string(log.events.size()) + ", with " + std::to_string(bytes.size() - at)
                + " bytes after it");
        log.torn = bad + " at byte " + std::to_string(at) + " (" + std::to_string(left)
            + " bytes dropped)";
        break;
    }
    log.good_bytes = at;
    return log;
}

RoomStore::RoomStore(std::filesystem::path state_dir)
    : dir_(std::move(state_dir) / "rooms") { }

StoreContents RoomStore::load() {
    StoreContents out;
    std::error_code ec;
    if (!std::filesystem::exists(dir_, ec)) return out;
    std::vector<std::string> names;
    // Not a range-for: its increment throws on an error, and load() never throws.
    for (std::filesystem::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec))
        names.push_back(it->path().filename().string());
    if (ec) {
        out.refused.emplace_back("*", "cannot list " + dir_.string() + ": " + ec.message());
        return out;
    }
    std::sort(names.begin(), names.end());
    for (const auto& name : names) {
        if (!is_room_id(name)) {
            out.warnings.push_back(
                "skipping " + (dir_ / name).string() + ": not a room's directory");
            continue;
        }
        // No config: a room whose creation or removal was cut short. Nobody has seen it (its
        // config is written before anyone hears of it), or its host has said it is closed.
        bool whole = std::filesystem::exists(room_dir(name) / "config", ec);
        if (ec) { // not "no config": a room must not be deleted because it could not be read
            out.refused.emplace_back(name, "cannot look into it: " + ec.message());
            continue;
        }
        if (!whole) {
            std::filesystem::remove_all(room_dir(name), ec);
            out.warnings.push_back("room " + name + ": made or removed only in part; "
                + (ec ? "cannot remove it: " + ec.message() : std::string("removed")));
            continue;
        }
        // A folded log the disk helper wrote but the host had not put in the log's place when
        // it stopped (RoomStore::folding): the log is whole without it.
        for (const auto* leftover : { "events.folded" })
            std::filesystem::remove(room_dir(name) / leftover, ec);
        auto room = load_room(name, out.warnings);
        if (room) {
            out.rooms.push_back(std::move(*room));
            continue;
        }
        out.refused.emplace_back(name, room.error().message);
        pb::RoomConfig config;
        if (auto bytes = read_whole_file(room_dir(name) / "config");
            bytes && config.ParseFromString(*bytes) && !config.name().empty())
            out.refused_names[name] = sanitize_text(config.name(), kMaxRoomName);
    }
    return out;
}

engine::Result<StoredRoom> RoomStore::load_room(
    const std::string& room_id, std::vector<std::string>& warnings) {
    auto dir = room_dir(room_id);
    auto config_bytes = read_whole_file(dir / "config");
    if (!config_bytes) return std::unexpected(config_bytes.error());
    pb::RoomConfig config_message;
    if (!config_message.ParseFromString(*config_bytes))
        return engine::fail("its config does not parse");
    auto config = wire::config_from_proto(config_message);
    if (!config) return engine::fail("its config: " + config.error().message);
    if (config->room_id != room_id) return engine::fail("its config names room " + config->room_id);

    auto member_bytes = read_paired_file(dir / "members");
    if (!member_bytes) return std::unexpected(member_bytes.error());
    // Neither copy there, or both empty (a power cut can leave a file empty where it is made
    // with Flush::kLater): the room has no seat tokens to keep, as an empty file said before.
    auto members = decode_members(member_bytes->value_or(""));
    if (!members) return std::unexpected(members.error());

    auto log_bytes = read_whole_file(dir / "events");
    if (!log_bytes) return std::unexpected(log_bytes.error());
    auto log = decode_event_log(*log_bytes);
    if (!log) return engine::fail("its events: " + log.error().message);
    if (!log->torn.empty()) {
        // Cut it off, or the next event appended would follow the damage.
        if (auto cut = truncate_file(dir / "events", log->good_bytes); !cut)
            return std::unexpected(cut.error());
        warnings.push_back("room " + config->name + " (" + room_id
            + "): dropped a torn last event, written in part when the daemon stopped: "
            + log->torn);
    }
    return StoredRoom { std::move(*config), std::move(log->events), std::move(*members) };
}

engine::Result<StoredRoom> RoomStore::reload(const std::string& room_id) {
    close_log(room_id); // a repair may cut the file: the next append opens it afresh
    std::vector<std::string> warnings;
    return load_room(room_id, warnings);
}

namespace {

// A new room's directory under `rooms` and its files, the config last (a room is loaded only
// whole), each written with `flush`, unless `veto` says otherwise before the config. On failure
// what was made of its directory goes again: no config was written, so no one has seen this
// room, and what there is of it would hold space on a full disk until the next start.
engine::Result<bool> create_room_files(const std::filesystem::path& rooms,
    const std::string& room_id, const std::string& config, const std::string& members, Flush flush,
    const RoomStore::Veto& veto = {}) {
    if (auto made = make_private_dir(rooms.parent_path()); !made) return made;
    if (auto made = make_private_dir(rooms); !made) return made;
    auto dir = rooms / room_id;
    std::error_code ec;
    if (!std::filesystem::create_directory(dir, ec))
        return engine::fail("cannot create " + dir.string() + ": "
            + (ec ? ec.message() : std::string("it exists already")));
    auto files = [&]() -> engine::Result<bool> {
        if (auto made = make_private_dir(dir); !made) return made;
        if (auto log = AppendFile::open(dir / "events", true); !log)
            return std::unexpected(log.error());
        if (auto written = write_file_atomically(dir / "members", first_copy(members), flush);
            !written)
            return written;
        // The second copy of members, and keys' two, exist from the start: the loop, which
        // writes them in place, then never creates a file for a join (paired_file.h).
        for (const char* copy : { "members.b", "keys", "keys.b" })
            if (auto made = make_empty_copy(dir / copy); !made) return made;
        if (auto why = veto ? veto() : std::nullopt) return engine::fail(*why);
        if (auto written = write_file_atomically(dir / "config", config, flush); !written)
            return written;
        // With kNow, the writes above flushed the room's directory (the empty log's entry
        // included); the rooms directory holds the room's own.
        if (flush == Flush::kLater) return true;
        return sync_directory(rooms);
    }();
    if (!files) std::filesystem::remove_all(dir, ec);
    return files;
}

std::string config_bytes(const RoomConfig& config) {
    pb::RoomConfig message;
    wire::to_proto(config, &message);
    return message.SerializeAsString();
}

} // namespace

engine::Result<bool> RoomStore::create(const RoomConfig& config, const StoredMembers& members) {
    auto made = create_room_files(
        dir_, config.room_id, config_bytes(config), encode_members(members), flush_);
    if (made && flush_ == Flush::kLater) {
        auto dir = room_dir(config.room_id);
        for (const auto& path : { dir / "events", dir / "members", dir / "config", dir, dir_ })
            unflushed_.push_back(path);
    }
    return made;
}

std::function<std::optional<std::string>()> RoomStore::creation(
    const RoomConfig& config, const StoredMembers& members, Veto veto) const {
    return [rooms = dir_, id = config.room_id, config = config_bytes(config),
               members = encode_members(members),
               veto = std::move(veto)]() -> std::optional<std::string> {
        auto made = create_room_files(rooms, id, config, members, Flush::kNow, veto);
        if (!made) return made.error().message;
        return std::nullopt;
    };
}

engine::Result<AppendFile*> RoomStore::open_log(const std::string& room_id) {
    if (auto it = open_log_of_.find(room_id); it != open_log_of_.end()) {
        open_logs_.splice(open_logs_.begin(), open_logs_, it->second);
        return &it->second->second;
    }
    auto log = AppendFile::open(room_dir(room_id) / "events", false);
    if (!log) return std::unexpected(log.error());
    close_logs_past(open_logs_cap_ - 1);
    open_logs_.emplace_front(room_id, std::move(*log));
    open_log_of_[room_id] = open_logs_.begin();
    return &open_logs_.front().second;
}

void RoomStore::keep_logs_open(std::size_t logs) {
    open_logs_cap_ = std::max<std::size_t>(1, logs);
    close_logs_past(open_logs_cap_);
}

void RoomStore::close_logs_past(std::size_t keep) {
    while (open_logs_.size() > keep) { // the ones written to longest ago
        open_log_of_.erase(open_logs_.back().first);
        open_logs_.pop_back();
    }
}

void RoomStore::close_log(const std::string& room_id) {
    if (auto it = open_log_of_.find(room_id); it != open_log_of_.end()) {
        open_logs_.erase(it->second);
        open_log_of_.erase(it);
    }
}

engine::Result<bool> RoomStore::append(
    const std::string& room_id, const std::vector<RoomEvent>& events) {
    auto log = open_log(room_id);
    if (!log) return std::unexpected(log.error());
    std::string bytes;
    for (const auto& e : events) bytes += encode_event_record(e);
    auto written = (*log)->append(bytes);
    if (!written) close_log(room_id); // opened afresh next time
    return written;
}

engine::Result<bool> RoomStore::rewrite(
    const std::string& room_id, const std::vector<RoomEvent>& events) {
    std::string bytes;
    for (const auto& e : events) bytes += encode_event_record(e);
    close_log(room_id); // the open one would write to the file the rename replaces
    return write_whole(room_dir(room_id) / "events", bytes);
}

std::function<std::optional<std::string>()> RoomStore::folding(
    const std::string& room_id, const std::vector<RoomEvent>& events) const {
    std::string bytes;
    for (const auto& e : events) bytes += encode_event_record(e);
    return [file = fold_file(room_id), bytes = std::move(bytes)]() -> std::optional<std::string> {
        if (auto written = write_file_flushed(file, bytes); !written)
            return written.error().message;
        return std::nullopt;
    };
}

engine::Result<bool> RoomStore::finish_fold(
    const std::string& room_id, const std::vector<RoomEvent>& since) {
    auto file = fold_file(room_id);
    {
        auto folded = AppendFile::open(file, false);
        if (!folded) return std::unexpected(folded.error());
        std::string bytes;
        for (const auto& e : since) bytes += encode_event_record(e);
        if (!bytes.empty())
            if (auto written = folded->append(bytes); !written) return written;
    }
    close_log(room_id); // the open one would write to the file the rename replaces
    auto log = room_dir(room_id) / "events";
    std::error_code ec;
    std::filesystem::rename(file, log, ec);
    if (ec) return engine::fail("cannot rename " + file.string() + ": " + ec.message());
    if (flush_ == Flush::kLater) {
        unflushed_.push_back(log);
        unflushed_.push_back(log.parent_path());
        return true;
    }
    if (auto flushed = flush_file(log); !flushed) return flushed;
    return sync_directory(log.parent_path());
}

engine::Result<bool> RoomStore::save_members(
    const std::string& room_id, const StoredMembers& members) {
    return write_paired(room_dir(room_id) / "members", encode_members(members));
}

engine::Result<bool> RoomStore::save_config(const RoomConfig& config) {
    return write_whole(room_dir(config.room_id) / "config", config_bytes(config));
}

engine::Result<bool> RoomStore::save_keys(const std::string& room_id, std::string_view text) {
    return write_paired(room_dir(room_id) / "keys", text);
}

engine::Result<bool> RoomStore::write_whole(
    const std::filesystem::path& path, std::string_view bytes) {
    auto written = write_file_atomically(path, bytes, flush_);
    if (written && flush_ == Flush::kLater) {
        unflushed_.push_back(path);
        unflushed_.push_back(path.parent_path());
    }
    return written;
}

engine::Result<bool> RoomStore::write_paired(
    const std::filesystem::path& path, std::string_view bytes) {
    // A copy written before whose flush is not done is written over again: the other copy may
    // be the only one on the disk (paired_file.h).
    std::optional<std::filesystem::path> again;
    for (const auto& copy : { path, second_copy(path) })
        if (auto it = copies_in_flight_.find(copy); it != copies_in_flight_.end()) {
            if (it->second == 0 || !flushed_(it->second))
                again = copy;
            else
                copies_in_flight_.erase(it);
        }
    auto written = write_paired_file(path, bytes, flush_, again);
    if (!written) return std::unexpected(written.error());
    if (flush_ == Flush::kLater) {
        unflushed_.push_back(written->copy);
        if (written->created) unflushed_.push_back(path.parent_path());
        copies_in_flight_[written->copy] = 0;
    }
    return true;
}

void RoomStore::flush_asked(const std::filesystem::path& file, std::uint64_t ticket) {
    if (auto it = copies_in_flight_.find(file); it != copies_in_flight_.end()) it->second = ticket;
}

engine::Result<bool> RoomStore::remove(const std::string& room_id) {
    close_log(room_id);
    auto dir = room_dir(room_id);
    std::erase_if(
        copies_in_flight_, [&](const auto& entry) { return entry.first.parent_path() == dir; });
    std::error_code ec;
    std::filesystem::remove(dir / "config", ec);
    if (ec) return engine::fail("cannot remove " + (dir / "config").string() + ": " + ec.message());
    // Flushing later is safe here too: a journalling file system makes the removals durable in
    // the order they were made, so the config never outlives the rest.
    if (flush_ == Flush::kNow)
        if (auto synced = sync_directory(dir); !synced) return synced;
    std::filesystem::remove_all(dir, ec);
    if (ec) return engine::fail("cannot remove " + dir.string() + ": " + ec.message());
    if (flush_ == Flush::kLater) {
        unflushed_.push_back(dir_);
        return true;
    }
    return sync_directory(dir_);
}

} // namespace halma::daemon
