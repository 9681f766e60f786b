#include "daemon/net/config_file.h"

#include "daemon/net/toml_syntax_error.h"

#include <algorithm>
#include <fstream>
#include <toml++/toml.h>
#include <utility>

namespace halma::daemon {

namespace {

// What a setting not known was most likely meant to be: the same in the file's spelling (words
// joined by '-', in lower case: bot_level, Bot-Level), or a table of one for many ([[rooms]]);
// as " (did you mean X?)", or empty when nothing is that close.
std::string meant(std::string_view key, const std::vector<std::string>& known) {
    std::string spelt;
    for (char c : key)
        spelt += c == '_' || c == ' '
            ? '-'
            : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const std::string& candidate :
        { spelt, spelt.ends_with('s') ? spelt.substr(0, spelt.size() - 1) : "" })
        if (!candidate.empty() && std::find(known.begin(), known.end(), candidate) != known.end())
            return " (did you mean " + (candidate == "room" ? std::string("[[room]]") : candidate)
                + "?)";
    return "";
}

// The value of an integer key, and of nothing else: toml++'s value<std::int64_t>() also takes
// true and false (and floats that happen to be whole), so `bots = true` gave a room a computer
// and `hold-ms = true` held a seat for a millisecond, each said to be fine.
template <class Node> std::optional<std::int64_t> whole_number(const toml::node_view<Node>& node) {
    if (const auto* n = node.as_integer()) return n->get();
    return std::nullopt;
}

} // namespace

// "FILE:LINE: " for an error from the file; nothing for one from a flag or a default.
std::string where(const BadConfig& bad, const std::optional<FileLines>& file) {
    if (!file) return "";
    if (bad.room >= 0 && static_cast<std::size_t>(bad.room) < file->rooms.size()) {
        const auto& keys = file->room_settings[static_cast<std::size_t>(bad.room)];
        auto it = keys.find(bad.setting);
        return file->at(
            it != keys.end() ? it->second : file->rooms[static_cast<std::size_t>(bad.room)]);
    }
    if (auto it = file->settings.find(bad.setting); it != file->settings.end())
        return file->at(it->second);
    return "";
}

// Reads the TOML file into the settings the command line did not give, and notes each one's
// line in `lines`. Its own errors start "FILE:LINE: " (a syntax error, "FILE line L, column C: ").
std::optional<BadConfig> apply_file(
    const std::string& path, Config& c, const CLI::App& app, FileLines& lines) {
    toml::table t;
    try {
        t = toml::parse_file(path);
    } catch (const toml::parse_error& e) {
        const auto& at = e.source().begin;
        std::ifstream in(path);
        std::string line;
        for (std::uint32_t n = 0; n < at.line && std::getline(in, line);) ++n;
        return BadConfig { toml_syntax_error(path, at.line, at.column, e.description(), line) };
    }
    lines.path = path;
    auto at = [&](const toml::node& n) { return lines.at(n.source().begin.line); };
    auto given = [&](const char* flag) { return app.count(std::string("--") + flag) > 0; };
    static const std::vector<std::string> known { "listen", "runtime-dir", "state-dir", "name",
        "log-level", "bot-level", "heartbeat-ms", "peer-timeout-ms", "hold-ms", "rejoin-limit",
        "request-timeout-ms", "max-message", "bot-budget-ms", "bot-pace-ms", "bot-threads",
        "records-kept", "mdns", "interfaces", "room" };
    for (const auto& [key, value] : t) {
        if (key.str() == "no-mdns") // the one flag whose setting has another name
            return BadConfig { at(value) + "unknown setting 'no-mdns': write mdns = false" };
        if (std::find(known.begin(), known.end(), key.str()) == known.end())
            return BadConfig { at(value) + "unknown setting '" + std::string(key.str()) + "'"
                + meant(key.str(), known) };
        // Every setting but these two has a flag of its name.
        bool by_flag = key.str() == "mdns" ? given("no-mdns")
            : key.str() == "room"          ? false
                                           : given(std::string(key.str()).c_str());
        if (!by_flag) lines.settings.emplace(key.str(), value.source().begin.line);
    }
    std::optional<BadConfig> error;
    auto want_string = [&](const char* key, auto& out) {
        if (!t.contains(key) || given(key) || error) return;
        if (auto v = t[key].value<std::string>())
            out = *v;
        else
            error = BadConfig { at(*t.get(key)) + key + " must be a string" };
    };
    auto want_int = [&](const char* key, auto& out) {
        if (!t.contains(key) || given(key) || error) return;
        using Out = std::remove_reference_t<decltype(out)>;
        // Narrowed only once it fits: 4294967396 became 100 (hold-ms accepted, records-kept
        // quietly 100), and 2147483648 "cannot be negative".
        if (auto v = whole_number(t[key]); v && std::in_range<Out>(*v))
            out = static_cast<Out>(*v);
        else if (v)
            error = BadConfig { at(*t.get(key)) + key + " = " + std::to_string(*v)
                + " is far out of range" };
        else
            error = BadConfig { at(*t.get(key)) + key + " must be a whole number" };
    };
    std::string runtime = c.runtime_dir.string(), state = c.state_dir.string();
    want_string("listen", c.listen);
    want_string("runtime-dir", runtime);
    want_string("state-dir", state);
    want_string("name", c.name);
    want_string("log-level", c.log_level);
    want_string("bot-level", c.bot_level);
    want_int("heartbeat-ms", c.heartbeat_ms);
    want_int("peer-timeout-ms", c.peer_timeout_ms);
    want_int("hold-ms", c.hold_ms);
    want_int("rejoin-limit", c.rejoin_limit);
    want_int("request-timeout-ms", c.request_timeout_ms);
    want_int("max-message", c.max_message);
    want_int("bot-budget-ms", c.bot_budget_ms);
    want_int("bot-pace-ms", c.bot_pace_ms);
    want_int("bot-threads", c.bot_threads);
    want_int("records-kept", c.records_kept);
    if (error) return error;
    if (t.contains("mdns") && !given("no-mdns")) {
        if (const auto* v = t["mdns"].as_boolean()) // not value<bool>: it takes 3 for true
            c.mdns = v->get();
        else
            return BadConfig { at(*t.get("mdns")) + "mdns must be true or false" };
    }
    if (t.contains("interfaces") && !given("interfaces")) {
        const toml::array* list = t["interfaces"].as_array();
        for (std::size_t i = 0; list && i < list->size(); ++i) {
            auto name = (*list)[i].value<std::string>();
            if (!name) {
                list = nullptr;
                break;
            }
            c.interfaces.push_back(*name);
        }
        if (!list)
            return BadConfig { at(*t.get("interfaces"))
                + "interfaces must be a list of names, [\"eth0\"]" };
    }
    c.runtime_dir = runtime;
    c.state_dir = state;
    if (!t.contains("room")) return std::nullopt;
    const toml::array* rooms = t["room"].as_array();
    if (!rooms)
        return BadConfig { at(*t.get("room")) + "room must be an array of tables, [[room]]" };
    if (rooms->size() > kMaxStandingRooms)
        return BadConfig { at(*rooms->get(kMaxStandingRooms)) + "at most "
            + std::to_string(kMaxStandingRooms) + " standing rooms ([[room]]); this file has "
            + std::to_string(rooms->size()) };
    for (const auto& node : *rooms) {
        const toml::table* r = node.as_table();
        if (!r) return BadConfig { at(node) + "each [[room]] must be a table" };
        StandingRoom room;
        room.name = (*r)["name"].value_or(std::string {});
        auto in_room = [&](const char* key) {
            return at(r->contains(key) ? *r->get(key) : node)
                + (room.name.empty() ? std::string("[[room]]") : "room " + room.name) + ": ";
        };
        std::string visibility = (*r)["visibility"].value_or(std::string("public"));
        if (visibility != "public" && visibility != "friends")
            return BadConfig { in_room("visibility") + "visibility must be public or friends" };
        room.visibility = visibility == "friends" ? Visibility::kFriends : Visibility::kPublic;
        // A key of the wrong type is an error, never silently the default. Each value's own
        // range is the mode's to check (RoomMode::invalid names it).
        auto number = [&](const char* key, int fallback) -> std::optional<int> {
            if (!r->contains(key)) return fallback;
            auto v = whole_number((*r)[key]);
            if (!v || *v < 0 || *v > 100'000'000) return std::nullopt;
            return static_cast<int>(*v);
        };
        for (const char* key :
            { "players", "sets", "move-limit", "bots", "next-game-ms", "turn-limit-s" })
            if (!number(key, 0)) {
                bool whole = whole_number((*r)[key]).has_value();
                return BadConfig { in_room(key) + key
                    + (whole ? " cannot be negative (or past 100000000)"
                             : " must be a whole number") };
            }
        for (const char* key : { "name", "visibility", "rules", "bot-level" })
            if (r->contains(key) && !(*r)[key].is_string())
                return BadConfig { in_room(key) + key + " must be a string" };
        room.mode.players = *number("players", 2);
        room.mode.sets_per_player = *number("sets", 1);
        room.mode.move_limit = *number("move-limit", kDefaultMoveLimit);
        room.mode.next_game_ms = *number("next-game-ms", kDefaultNextGameMs);
        room.mode.turn_limit_s = *number("turn-limit-s", 0);
        if (r->contains("hide-leader") && !(*r)["hide-leader"].is_boolean())
            return BadConfig { in_room("hide-leader") + "hide-leader must be true or false" };
        room.mode.hide_leader = (*r)["hide-leader"].value_or(false);
        room.bots = *number("bots", 0);
        if (auto level = (*r)["bot-level"].value<std::string>()) {
            room.bot_level = parse_bot_level(*level);
            if (!room.bot_level)
                return BadConfig { in_room("bot-level") + "bot-level must be easy, hard or max" };
        }
        auto rules = engine::Rules::parse((*r)["rules"].value_or(std::string {}));
        if (!rules) return BadConfig { in_room("rules") + rules.error().message };
        room.mode.rules = *rules;
        static const std::vector<std::string> room_keys { "name", "visibility", "players", "sets",
            "rules", "bots", "bot-level", "move-limit", "hide-leader", "next-game-ms",
            "turn-limit-s" };
        auto& keys = lines.room_settings.emplace_back();
        for (const auto& [key, value] : *r) {
            if (std::find(room_keys.begin(), room_keys.end(), key.str()) == room_keys.end()) {
                // TOML gives every line after [[room]] to that room: a setting of the daemon
                // added at the end of the file lands in the last room.
                if (std::find(known.begin(), known.end(), key.str()) != known.end())
                    return BadConfig { at(value) + "room " + room.name + ": "
                        + std::string(key.str())
                        + " is a setting of the whole daemon: put it above the first [[room]] "
                          "(every line after [[room]] belongs to that room)" };
                return BadConfig { at(value) + "room " + room.name + ": unknown setting '"
                    + std::string(key.str()) + "'" + meant(key.str(), room_keys) };
            }
            keys.emplace(key.str(), value.source().begin.line);
        }
        lines.rooms.push_back(node.source().begin.line);
        c.rooms.push_back(std::move(room));
    }
    return std::nullopt;
}

} // namespace halma::daemon
