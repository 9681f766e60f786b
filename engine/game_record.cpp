#include "game_record.h"

#include "notation.h"

#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>

namespace halma::engine {

namespace {

// Longer tag values are damage, not names (a room or member name is at most 40 characters).
constexpr std::size_t kMaxValue = 200;

std::string quoted(std::string_view value) {
    std::string out = "\"";
    for (char c : value) {
        if (c == '"' || c == '\\') out += '\\';
        // One tag a line: a control character would break the line structure.
        out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    }
    return out + "\"";
}

void tag(std::string& out, std::string_view name, std::string_view value) {
    out += "[";
    out += name;
    out += " " + quoted(value) + "]\n";
}

std::string player_tag(std::size_t player, std::string_view what) {
    return "Player" + std::to_string(player + 1) + std::string(what);
}

Result<int> to_int(std::string_view text, std::string_view what, int lo, int hi) {
    int v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc {} || end != text.data() + text.size() || v < lo || v > hi)
        return fail(std::string(what) + " is \"" + std::string(text) + "\"; it must be a number "
            + std::to_string(lo) + " to " + std::to_string(hi));
    return v;
}

// One header line: [Name "value"], the value with \" and \\ escaped.
Result<std::pair<std::string, std::string>> parse_tag(std::string_view line) {
    if (line.size() < 5 || line.front() != '[' || line.back() != ']')
        return fail("a tag is [Name \"value\"]");
    line = line.substr(1, line.size() - 2);
    auto space = line.find(' ');
    if (space == std::string_view::npos || space == 0) return fail("a tag is [Name \"value\"]");
    std::string name(line.substr(0, space));
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            return fail("tag name \"" + name + "\" is not letters and digits");
    std::string_view rest = line.substr(space + 1);
    if (rest.size() < 2 || rest.front() != '"' || rest.back() != '"')
        return fail("tag " + name + ": its value must be in double quotes");
    rest = rest.substr(1, rest.size() - 2);
    std::string value;
    for (std::size_t i = 0; i < rest.size(); ++i) {
        if (rest[i] == '"') return fail("tag " + name + ": a \" inside its value must be \\\"");
        if (rest[i] == '\\') {
            if (++i == rest.size()) return fail("tag " + name + ": its value ends in a lone \\");
        }
        value += rest[i];
    }
    if (value.size() > kMaxValue)
        return fail("tag " + name + ": its value is longer than " + std::to_string(kMaxValue)
            + " characters");
    return std::pair { std::move(name), std::move(value) };
}

const char* const kEndings[] = { "all home", "places decided", "move limit", "stalled", "cancelled",
    "restarted", "room closed" };

} // namespace

std::string_view ending_name(GameEnd end) {
    switch (end) {
    case GameEnd::kAllHome:
        return kEndings[0];
    case GameEnd::kPlacesDecided:
        return kEndings[1];
    case GameEnd::kMoveLimit:
        return kEndings[2];
    case GameEnd::kStalled:
        return kEndings[3];
    case GameEnd::kNotOver:
        break;
    }
    return kEndings[4]; // a game that is not over ended only because it was called off
}

std::string iso_time(std::int64_t unix_ms) {
    using namespace std::chrono;
    sys_seconds t { seconds { unix_ms / 1000 } };
    auto day = floor<days>(t);
    year_month_day ymd { day };
    hh_mm_ss hms { t - day };
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", int(ymd.year()),
        unsigned(ymd.month()), unsigned(ymd.day()), int(hms.hours().count()),
        int(hms.minutes().count()), int(hms.seconds().count()));
    return buf;
}

Result<std::int64_t> parse_iso_time(std::string_view text) {
    auto bad = [&] {
        return fail("\"" + std::string(text) + "\" is not a time like 2026-11-23T06:12:00Z");
    };
    if (text.size() != 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':'
        || text[16] != ':' || text[19] != 'Z')
        return bad();
    auto field = [&](std::size_t at, std::size_t n, int lo, int hi) -> std::optional<int> {
        auto v = to_int(text.substr(at, n), "", lo, hi);
        return v ? std::optional<int>(*v) : std::nullopt;
    };
    auto y = field(0, 4, 1970, 9999), mo = field(5, 2, 1, 12), d = field(8, 2, 1, 31);
    auto h = field(11, 2, 0, 23), mi = field(14, 2, 0, 59), s = field(17, 2, 0, 59);
    if (!y || !mo || !d || !h || !mi || !s) return bad();
    using namespace std::chrono;
    year_month_day ymd { year { *y }, month { unsigned(*mo) }, day { unsigned(*d) } };
    if (!ymd.ok()) return bad();
    auto t = sys_days { ymd } + hours { *h } + minutes { *mi } + seconds { *s };
    return static_cast<std::int64_t>(duration_cast<milliseconds>(t.time_since_epoch()).count());
}

std::string format_record(const GameRecord& r) {
    std::string out;
    tag(out, "Format", kRecordFormat);
    tag(out, "Room", r.room);
    tag(out, "Game", std::to_string(r.game_number));
    tag(out, "Started", iso_time(r.started_ms));
    tag(out, "Ended", iso_time(r.ended_ms));
    tag(out, "Players", std::to_string(r.setup.players));
    tag(out, "SetsPerPlayer", std::to_string(r.setup.sets_per_player));
    tag(out, "Rules", r.setup.rules.to_string());
    tag(out, "MoveLimit", std::to_string(r.setup.move_limit));
    tag(out, "StallLimit", std::to_string(r.setup.stall_limit));
    tag(out, "PlayAllPlaces", r.setup.play_all_places ? "on" : "off");
    if (r.setup.end_when_stuck) tag(out, "EndWhenStuck", "on");
    tag(out, "FirstSet", std::to_string(r.first_set + 1));
    for (std::size_t p = 0; p < r.players.size(); ++p) {
        tag(out, player_tag(p, ""), r.players[p].name);
        tag(out, player_tag(p, "Seat"), std::to_string(r.players[p].seat));
        tag(out, player_tag(p, "Kind"), r.players[p].kind);
        std::string sets;
        for (SetId s : r.setup.sets_of(static_cast<int>(p)))
            sets += (sets.empty() ? "" : " ") + std::to_string(s + 1);
        tag(out, player_tag(p, "Sets"), sets);
    }
    std::string places;
    for (int place : r.places) places += (places.empty() ? "" : " ") + std::to_string(place);
    tag(out, "Places", places);
    tag(out, "Ending", r.ending);
    tag(out, "Moves", std::to_string(r.moves.size()));
    out += "\n";
    for (std::size_t i = 0; i < r.moves.size(); ++i)
        out += std::to_string(i + 1) + ". "
            + (r.moves[i].empty() ? std::string("pass") : path_name(r.moves[i])) + "\n";
    return out;
}

Result<Game> start_of(const GameRecord& r) {
    if (auto error = r.setup.validate()) return std::unexpected(*error);
    if (r.first_set >= kSetNB || !has_set(r.setup.sets(), r.first_set))
        return fail("set " + std::to_string(r.first_set + 1) + " is not in this game");
    return Game(r.setup, r.first_set);
}

namespace {

// The header's tags, by name; each checked and taken once.
struct Tags {
    std::map<std::string, std::string> values;
    Result<std::string> take(const std::string& name) {
        auto it = values.find(name);
        if (it == values.end()) return fail("the record has no " + name + " tag");
        return it->second;
    }
    Result<int> number(const std::string& name, int lo, int hi) {
        auto v = take(name);
        if (!v) return std::unexpected(v.error());
        return to_int(*v, name, lo, hi);
    }
};

Result<bool> read_header(Tags& tags, GameRecord& r) {
    auto room = tags.take("Room");
    if (!room) return std::unexpected(room.error());
    r.room = *room;
    auto game = tags.number("Game", 1, 1 << 30);
    if (!game) return std::unexpected(game.error());
    r.game_number = *game;
    for (auto [name, field] :
        { std::pair { "Started", &r.started_ms }, std::pair { "Ended", &r.ended_ms } }) {
        auto text = tags.take(name);
        if (!text) return std::unexpected(text.error());
        auto t = parse_iso_time(*text);
        if (!t) return fail(std::string(name) + ": " + t.error().message);
        *field = *t;
    }
    auto players = tags.number("Players", 2, 6);
    auto sets = tags.number("SetsPerPlayer", 1, 3);
    auto rules_text = tags.take("Rules");
    auto limit = tags.number("MoveLimit", 0, 1 << 20);
    auto stall = tags.number("StallLimit", 0, 1 << 20);
    auto all_places = tags.take("PlayAllPlaces");
    auto first = tags.number("FirstSet", 1, kSetNB);
    for (const auto* v : { &players, &sets, &limit, &stall, &first })
        if (!*v) return std::unexpected(v->error());
    if (!rules_text) return std::unexpected(rules_text.error());
    if (!all_places) return std::unexpected(all_places.error());
    auto rules = Rules::parse(*rules_text);
    if (!rules) return fail("Rules: " + rules.error().message);
    if (*all_places != "on" && *all_places != "off")
        return fail("PlayAllPlaces is \"" + *all_places + "\"; it must be on or off");
    auto setup = GameSetup::make(*players, *sets, *rules);
    if (!setup) return fail("Players and SetsPerPlayer: " + setup.error().message);
    r.setup = *setup;
    r.setup.move_limit = *limit;
    r.setup.stall_limit = *stall;
    r.setup.play_all_places = *all_places == "on";
    // Absent in records of games begun before the rule: they played on, passing.
    auto stuck = tags.values.find("EndWhenStuck");
    if (stuck != tags.values.end() && stuck->second != "on" && stuck->second != "off")
        return fail("EndWhenStuck is \"" + stuck->second + "\"; it must be on or off");
    r.setup.end_when_stuck = stuck != tags.values.end() && stuck->second == "on";
    r.first_set = static_cast<SetId>(*first - 1);
    for (int p = 0; p < *players; ++p) {
        auto i = static_cast<std::size_t>(p);
        auto name = tags.take(player_tag(i, ""));
        auto seat = tags.number(player_tag(i, "Seat"), 1, 6);
        auto kind = tags.take(player_tag(i, "Kind"));
        if (!name) return std::unexpected(name.error());
        if (!seat) return std::unexpected(seat.error());
        if (!kind) return std::unexpected(kind.error());
        if (*kind != "human" && *kind != "bot easy" && *kind != "bot hard" && *kind != "bot max")
            return fail(player_tag(i, "Kind") + " is \"" + *kind
                + "\"; it must be human, bot easy, bot hard or bot max");
        r.players.push_back(RecordPlayer { *name, *seat, *kind });
    }
    auto places = tags.take("Places");
    if (!places) return std::unexpected(places.error());
    std::istringstream words(*places);
    for (std::string word; words >> word;) {
        auto place = to_int(word, "a place in Places", 0, *players);
        if (!place) return std::unexpected(place.error());
        r.places.push_back(*place);
    }
    if (r.places.size() != static_cast<std::size_t>(*players))
        return fail("Places has " + std::to_string(r.places.size()) + " places for "
            + std::to_string(*players) + " players");
    auto ending = tags.take("Ending");
    if (!ending) return std::unexpected(ending.error());
    bool known = false;
    for (const char* e : kEndings) known = known || *ending == e;
    if (!known)
        return fail("Ending is \"" + *ending
            + "\"; it must be all home, places decided, move limit, stalled, cancelled, "
              "restarted or room closed");
    r.ending = *ending;
    return true;
}

} // namespace

Result<GameRecord> parse_record(std::string_view text, bool replay) {
    GameRecord r;
    Tags tags;
    std::istringstream lines { std::string(text) };
    std::string line;
    int n = 0;
    auto at
        = [&](const std::string& why) { return fail("line " + std::to_string(n) + ": " + why); };
    // The header: tag lines up to the first empty line, Format first.
    while (std::getline(lines, line)) {
        ++n;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) break;
        if (line[0] == ';') continue;
        auto t = parse_tag(line);
        if (!t) return at(t.error().message);
        if (n == 1 && t->first != "Format") return at("a record starts with its Format tag");
        if (t->first == "Format" && t->second != kRecordFormat)
            return at("this is \"" + t->second + "\", not \"" + std::string(kRecordFormat)
                + "\" (the only format this halma reads)");
        if (!tags.values.emplace(t->first, t->second).second)
            return at("tag " + t->first + " is given twice");
    }
    if (n == 0 || !tags.values.count("Format"))
        return fail("not a halma record: it does not start with [Format \"halma-record 1\"]");
    if (auto header = read_header(tags, r); !header) return std::unexpected(header.error());
    auto count = tags.number("Moves", 0, 1 << 24);
    if (!count) return std::unexpected(count.error());
    auto game = start_of(r);
    if (!game) return std::unexpected(game.error());
    // The moves: "N. PATH", numbered from 1, each played to check it.
    while (std::getline(lines, line)) {
        ++n;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == ';') continue;
        std::istringstream words(line);
        std::string number, move, extra;
        words >> number >> move;
        std::string want = std::to_string(r.moves.size() + 1) + ".";
        if (number != want || move.empty() || (words >> extra))
            return at("expected move \"" + want + " PATH\", found \"" + line + "\"");
        std::vector<Cell> path;
        if (move != "pass") {
            auto parsed = parse_path(move);
            if (!parsed) return at(parsed.error().message);
            path = *parsed;
        }
        if (!replay) {
            r.moves.push_back(std::move(path));
            continue;
        }
        if (game->over()) return at("move " + want + " comes after the game was over");
        auto played = game->play(move);
        if (!played) return at("move " + want + " " + move + ": " + played.error().message);
        // The path as the game played it: "o1-m7" names a chain by its ends.
        r.moves.push_back(played->front().path.empty() ? path : played->front().path);
    }
    if (r.moves.size() != static_cast<std::size_t>(*count))
        return fail("the Moves tag says " + std::to_string(*count) + " moves; the record has "
            + std::to_string(r.moves.size()));
    return r;
}

} // namespace halma::engine
