#include "cli/client/room_table.h"

#include "cli/client/output.h"
#include "cli/client/term_text.h"
#include "engine/rules.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace halma::cli {

namespace pb = ::halma::v1;

namespace {

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, sep);)
        if (!part.empty()) parts.push_back(part);
    return parts;
}

// Columns line up by what the terminal shows, not bytes: names may hold any UTF-8 ("Zoë 🎲").
std::size_t width(const std::string& text) {
    return static_cast<std::size_t>(visible_width(text));
}

// Whatever a daemon let through, a terminal never gets a control character from a room list.
std::string printable(const std::string& text) {
    std::string out;
    for (char c : text) {
        auto u = static_cast<unsigned char>(c);
        out += u < 0x20 || u == 0x7f ? '?' : c;
    }
    return out;
}

std::string host_column(const pb::RoomSummary& r) {
    switch (r.origin()) {
    case pb::ROOM_ORIGIN_HOSTED:
        return "you" + (r.machine().empty() ? "" : " (" + r.machine() + ")");
    case pb::ROOM_ORIGIN_LAN:
    case pb::ROOM_ORIGIN_JOINED: {
        std::string machine = r.machine().empty() ? r.address() : r.machine();
        return r.host_player().empty() ? machine : r.host_player() + " (" + machine + ")";
    }
    default: // asked of a host (halma rooms HOST): by its machine's name, if asked so
        return r.machine().empty() ? r.address() : r.machine() + " (" + r.address() + ")";
    }
}

// A seat at a host not reached since halmad started: nothing of the room is known yet (its
// mode and seats read "0 players", "0/0").
bool not_heard_of_yet(const pb::RoomSummary& r) {
    return r.host_out_of_reach() && r.seats() == 0;
}

std::string seats_column(const pb::RoomSummary& r) {
    if (not_heard_of_yet(r)) return "?";
    std::string s = std::to_string(r.seats_taken()) + "/" + std::to_string(r.seats());
    if (r.spectators()) s += " +" + std::to_string(r.spectators());
    return s;
}

std::string phase_column(const pb::RoomSummary& r) {
    std::string p = not_heard_of_yet(r) ? "not heard of yet" : phase_name(r.phase());
    if (r.origin() == pb::ROOM_ORIGIN_JOINED) p += ", joined";
    // The list is where a player looks first: a room whose host is gone looked alive.
    if (r.host_out_of_reach()) p += ", host out of reach";
    if (r.visibility() == pb::VISIBILITY_FRIENDS)
        p += ", friends" + (r.code().empty() ? "" : " " + r.code());
    return p;
}

} // namespace

std::string describe_mode(const pb::RoomMode& mode) {
    std::string out = std::to_string(mode.players()) + " players";
    if (mode.sets_per_player() > 1) out += " x " + std::to_string(mode.sets_per_player()) + " sets";
    auto defaults = split(engine::Rules {}.to_string(), ',');
    std::string changed;
    if (auto rules = engine::Rules::parse(mode.rules())) {
        for (const auto& setting : split(rules->to_string(), ','))
            if (std::find(defaults.begin(), defaults.end(), setting) == defaults.end())
                changed += (changed.empty() ? "" : ",") + setting;
    } else if (!mode.rules().empty()) {
        changed = mode.rules(); // a newer daemon's settings: shown as they are
    }
    if (!changed.empty()) out += ", " + changed;
    if (mode.move_limit() != 0 && mode.move_limit() != 1000)
        out += ", limit " + std::to_string(mode.move_limit());
    if (mode.hide_leader()) out += ", leader hidden";
    if (mode.turn_limit_s() != 0) out += ", " + std::to_string(mode.turn_limit_s()) + " s a turn";
    return out;
}

std::string format_room_table(const pb::RoomList& rooms) {
    if (rooms.rooms_size() == 0) return "no rooms here or on the LAN\n";
    std::vector<std::vector<std::string>> rows { { "HOST", "NAME", "MODE", "SEATS", "PHASE" } };
    for (const auto& r : rooms.rooms())
        rows.push_back({ printable(host_column(r)), printable(r.name()),
            not_heard_of_yet(r) ? "?" : printable(describe_mode(r.mode())), seats_column(r),
            printable(phase_column(r)) });
    std::vector<std::size_t> widths(rows.front().size(), 0);
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], width(row[i]));
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            line += row[i];
            if (i + 1 < row.size()) line += std::string(widths[i] - width(row[i]) + 2, ' ');
        }
        out += line + "\n";
    }
    return out;
}

std::string discovery_note(const pb::Discovery& d) {
    switch (d.state()) {
    case pb::DISCOVERY_STATE_RUNNING:
        return "";
    case pb::DISCOVERY_STATE_OFF:
        return "LAN discovery is off in this halmad; halma rooms HOST[:PORT] asks a host directly";
    default:
        return "LAN discovery is not running (" + d.detail()
            + "): the LAN's rooms are missing; halma rooms HOST[:PORT] asks a host directly";
    }
}

} // namespace halma::cli
