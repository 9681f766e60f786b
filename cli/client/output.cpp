#include "cli/client/output.h"

#include "cli/client/board_render.h"
#include "cli/client/room_table.h"
#include "cli/client/shell_word.h"

#include <algorithm>
#include <google/protobuf/util/json_util.h>
#include <optional>
#include <vector>

namespace halma::cli {

namespace pb = ::halma::v1;

std::string to_json(const google::protobuf::Message& message) {
    std::string out;
    google::protobuf::util::JsonPrintOptions options;
    options.always_print_primitive_fields = true;
    options.preserve_proto_field_names = true;
    (void)google::protobuf::util::MessageToJsonString(message, &out, options);
    return out;
}

std::string phase_name(pb::Phase phase) {
    switch (phase) {
    case pb::PHASE_WAITING:
        return "waiting for players";
    case pb::PHASE_PLAYING:
        return "playing";
    case pb::PHASE_OVER:
        return "game over";
    case pb::PHASE_CANCELLED:
        return "game cancelled";
    case pb::PHASE_CLOSED:
        return "room closed";
    default:
        return "?";
    }
}

std::string connection_name(pb::ConnectionState state) {
    switch (state) {
    case pb::CONNECTION_STATE_CONNECTED:
        return "connected";
    case pb::CONNECTION_STATE_CONNECTING:
        return "connecting";
    default:
        return "disconnected";
    }
}

namespace {

std::string summary_line(const pb::RoomSummary& r) {
    // A joined room whose host this daemon has not reached since it started: only its name and
    // address are known (as halma rooms says it).
    if (r.host_out_of_reach() && r.seats() == 0)
        return r.name() + "  not heard of yet, host out of reach  at " + r.address();
    std::string line = r.name() + "  " + std::to_string(r.seats_taken()) + "/"
        + std::to_string(r.seats()) + " seats, " + std::to_string(r.mode().players())
        + " players x " + std::to_string(r.mode().sets_per_player())
        + (r.mode().sets_per_player() == 1 ? " set, " : " sets, ") + phase_name(r.phase());
    if (r.spectators()) line += ", " + std::to_string(r.spectators()) + " watching";
    if (!r.address().empty()) line += "  at " + r.address();
    if (r.visibility() == pb::VISIBILITY_FRIENDS)
        line += "  friends room" + (r.code().empty() ? "" : ", code " + r.code());
    // A joined room listed as "playing" while its host was down said nothing of it.
    // Unreached, or refused (its key changed): halma status says which, and what to do.
    if (r.host_out_of_reach())
        line += "  (not connected to its host now: halma status -r " + shell_word(r.name())
            + " says why)";
    return line;
}

} // namespace

std::string format_daemon_status(const pb::DaemonStatus& s) {
    std::string out = "halmad " + s.version() + " (protocol " + std::to_string(s.protocol())
        + "), player " + s.name() + ", listening on " + s.listen() + ", up "
        + std::to_string(s.uptime_s()) + " s\n";
    out += "  computer players: " + std::string(s.bots() ? "yes" : "not built in") + "\n";
    out += "  daemons in its rooms: " + std::to_string(s.peers()) + "\n";
    out += "  key: "
        + (s.key_fingerprint().empty()
                ? std::string("none: links are NOT encrypted (testing option)")
                : s.key_fingerprint() + " (links to other daemons are encrypted)")
        + "\n";
    const auto& d = s.discovery();
    if (d.state() == pb::DISCOVERY_STATE_RUNNING)
        out += "  LAN discovery: running as " + d.machine() + ", " + std::to_string(d.lan_rooms())
            + " room(s) of others found; " + d.detail() + "\n";
    else if (d.state() == pb::DISCOVERY_STATE_OFF)
        out += "  LAN discovery: off (" + d.detail() + ")\n";
    else
        out += "  LAN discovery: not running (" + d.detail() + ")\n";
    for (const auto& r : s.hosted()) out += "  hosting: " + summary_line(r) + "\n";
    for (const auto& r : s.joined()) out += "  joined:  " + summary_line(r) + "\n";
    if (s.hosted_size() + s.joined_size() == 0) out += "  in no room\n";
    return out;
}

std::string format_rooms(const pb::RoomList& rooms) {
    if (rooms.rooms_size() == 0) return "no rooms\n";
    std::string out;
    for (const auto& r : rooms.rooms()) out += summary_line(r) + "\n";
    return out;
}

std::string format_room_status(const pb::RoomView& v, bool colour) {
    const auto& s = v.summary();
    std::string out = "room " + s.name() + " (" + phase_name(s.phase());
    if (v.game_number()) out += ", game " + std::to_string(v.game_number());
    out += ", " + connection_name(v.connection()) + ")\n";
    // The mode, as halma rooms shows it: a move limit or a turn limit was said nowhere a player
    // looks, and the game just ended on it.
    // Leaving out "leader hidden": during a game the lead line says so, and at its end it is
    // shown (a "hidden" beside the final standings misled).
    pb::RoomMode mode = s.mode();
    mode.set_hide_leader(false);
    out += "mode: " + describe_mode(mode) + "\n";
    // Why the room takes no change now (the host's disk, or a host this daemon refuses).
    if (!v.read_only().empty()) out += "! " + v.read_only() + "\n";
    if (s.visibility() == pb::VISIBILITY_FRIENDS && !s.code().empty())
        out += "friends code: " + s.code() + "\n";
    for (const auto& seat : v.seats()) {
        std::string marker = seat.seat() == v.turn_seat() ? "> " : "  ";
        std::string name = seat.name().empty() ? "(free)" : seat.name();
        if (seat.bot()) name += " [" + seat.bot_level() + " bot]";
        if (seat.seat() == v.your_seat()) name += " (you)";
        if (auto held = hold_left_words(seat); !held.empty())
            name += " [vanished; seat held " + held + " more, then a computer keeps it for them]";
        else if (!seat.name().empty() && !seat.connected())
            name += " [vanished; seat held]";
        if (seat.away()) name += " [away: ran out of time, the computer moves for them]";
        std::string colours;
        for (auto set : seat.sets())
            colours += (colours.empty() ? "" : " + ") + set_label(static_cast<int>(set), colour);
        out += marker + "seat " + std::to_string(seat.seat() + 1) + ": " + name;
        if (!colours.empty()) out += ", " + colours;
        if (seat.voted_new_game()) out += ", votes for a new game";
        if (seat.voted_cancel()) out += ", votes to cancel";
        if (seat.voted_leader())
            out += v.leader_hidden() ? ", votes to show the leader" : ", votes to hide the leader";
        if (seat.voted_take_back())
            out += seat.seat() == v.take_back_seat() ? ", asks to take back " + v.take_back_move()
                                                     : ", agrees to take back a move";
        out += "\n";
    }
    if (v.spectators_size()) {
        out += "watching:";
        for (const auto& n : v.spectators()) out += " " + n;
        out += "\n";
    }
    if (v.standings_size()) {
        out += "standings:\n";
        for (const auto& st : v.standings()) {
            // A person may be named "bot": computers are said to be, as in the seats above.
            bool bot = st.seat() >= 0 && st.seat() < v.seats_size() && v.seats(st.seat()).bot();
            std::string level = bot ? v.seats(st.seat()).bot_level() : "";
            out += "  " + (st.place() ? std::to_string(st.place()) + "." : "  ") + " " + st.name()
                + (bot ? " [" + (level.empty() ? "" : level + " ") + "bot]" : "") + ": ";
            std::string moves = std::to_string(st.moves()) + (st.moves() == 1 ? " move" : " moves");
            out += st.finished() ? "home in " + moves
                                 : std::to_string(st.distance_left()) + " to go after " + moves;
            out += "\n";
        }
    }
    if (s.phase() == pb::PHASE_PLAYING && v.leader_hidden())
        out += "in the lead: hidden until the game ends\n";
    else if (v.standings_size()) {
        if (s.phase() == pb::PHASE_PLAYING) out += "in the lead: " + leader_words(v) + "\n";
    }
    if (s.phase() == pb::PHASE_OVER) {
        switch (v.game_end()) {
        case pb::GAME_END_MOVE_LIMIT:
            out += "game over: the move limit was reached; the rest are placed by distance\n";
            break;
        case pb::GAME_END_STALLED:
            out += "game over: nobody got nearer home in 100 moves each, or nobody could move; "
                   "the rest are placed by distance\n";
            break;
        case pb::GAME_END_PLACES_DECIDED:
            out += "game over: every place is decided\n";
            break;
        default:
            out += "game over\n";
        }
        if (auto won = winner_words(v); !won.empty()) out += won + "\n";
    }
    if (s.phase() == pb::PHASE_PLAYING && v.turn_seat() >= 0 && v.turn_seat() < v.seats_size()) {
        const std::string& name = v.seats(v.turn_seat()).name();
        std::string left = time_left_words(v);
        left = left.empty() ? "" : " (" + left + " left)";
        // The host out of reach: the turn is the player's, but a move cannot be sent now (it
        // said "your turn" beside "connecting" and nothing more).
        std::string wait = v.connection() == pb::CONNECTION_STATE_CONNECTED
            ? ""
            : "; a move can be sent once the host is back in reach";
        out += v.your_turn() ? "your turn" + left + wait + "\n"
            : name.empty()   ? "seat " + std::to_string(v.turn_seat() + 1)
                + " is free: the game waits for someone to join it (or /vote cancel)\n"
                           : name + "'s turn" + left + "\n";
    }
    if (auto made = moves_made_for_you_words(v); !made.empty())
        out += "while you were away " + made
            + (s.phase() == pb::PHASE_PLAYING ? "; make a move to come back" : "") + "\n";
    if (s.phase() == pb::PHASE_OVER || s.phase() == pb::PHASE_CANCELLED)
        out += "next game: " + next_game_words(v, "halma vote new") + "\n";
    for (const auto& line : open_vote_lines(v, "halma vote")) out += line + "\n";
    return out;
}

std::string winner_words(const pb::RoomView& view) {
    // The viewer as "you", first: "winner: ann" told ann she had won as if of someone else.
    std::vector<std::string> first;
    bool yours = false;
    for (const auto& st : view.standings())
        if (st.place() == 1 && st.seat() == view.your_seat() && view.your_seat() >= 0)
            yours = true;
        else if (st.place() == 1)
            first.push_back(st.name());
    if (yours && first.empty()) return "you won";
    if (yours) first.insert(first.begin(), "you");
    if (first.empty()) return "";
    if (first.size() == 1) return "winner: " + first[0];
    std::string names;
    for (std::size_t i = 0; i < first.size(); ++i)
        names += (i == 0 ? "" : i + 1 == first.size() ? " and " : ", ") + first[i];
    return "draw: " + names + " share first place";
}

std::string leader_words(const pb::RoomView& v, std::size_t names_at_most) {
    if (v.leader_seat() >= 0 && v.leader_seat() < v.seats_size())
        return v.seats(v.leader_seat()).name();
    if (v.standings().empty()) return "nobody yet (all level)";
    // Standings come best first: the finished by the moves they needed, then the rest by
    // distance. Level at the front are those alike with the first: two home in the same round
    // are level ahead of everyone (it named the best of those still playing instead).
    const auto& top = v.standings(0);
    auto level_with_top = [&](const pb::Standing& st) {
        return st.finished() == top.finished()
            && (top.finished() ? st.moves() == top.moves()
                               : st.distance_left() == top.distance_left());
    };
    std::vector<std::string> level;
    for (const auto& st : v.standings())
        if (level_with_top(st)) level.push_back(st.name());
    if (!top.finished() && static_cast<int>(level.size()) == v.standings_size())
        return "nobody yet (all level)";
    if (level.size() == 1) return level.front();
    if (level.size() > names_at_most) return std::to_string(level.size()) + " players (level)";
    std::string names;
    for (std::size_t i = 0; i < level.size(); ++i)
        names += (i == 0 ? "" : i + 1 == level.size() ? " and " : ", ") + level[i];
    return names + (top.finished() ? " (level, home)" : " (level)");
}

std::string take_back_words(const pb::RoomView& v) {
    if (v.take_back_seat() < 0 || v.take_back_seat() >= v.seats_size()) return "take back a move";
    std::string whose = v.take_back_seat() == v.your_seat()
        ? std::string("your")
        : v.seats(v.take_back_seat()).name() + "'s";
    std::string text = "take back " + whose + " " + v.take_back_move();
    if (v.take_back_count() == 2) text += " and the move after it";
    if (v.take_back_count() > 2)
        text += " and the " + std::to_string(v.take_back_count() - 1) + " moves after it";
    return text;
}

std::string moves_made_for_you_words(const pb::RoomView& v) {
    const auto& made = v.moves_made_for_you();
    if (made.empty()) return "";
    // The latest three at most: a line under the board, not the game's record.
    constexpr int kNamed = 3;
    int named = std::min(made.size(), kNamed);
    std::string moves;
    for (int i = made.size() - named; i < made.size(); ++i)
        moves += (moves.empty() ? "" : ", ") + made[i];
    auto count = std::max<std::uint32_t>(
        v.moves_made_for_you_count(), static_cast<std::uint32_t>(made.size()));
    if (count == static_cast<std::uint32_t>(named))
        return "the computer played " + moves + " for you";
    return "the computer played " + std::to_string(count) + " moves for you; the last "
        + (named == 1 ? "" : std::to_string(named) + " ") + "were " + moves;
}

std::vector<std::string> open_vote_lines(const pb::RoomView& v, const std::string& how) {
    struct Kind {
        bool (pb::SeatView::*voted)() const;
        std::string what, verb;
        bool waits_for_gone = false; // a player whose daemon vanished holds this one up
    };
    // A new game while one is played waits for a vanished player too (until the hold runs out):
    // it would throw their game away.
    bool playing = v.summary().phase() == pb::PHASE_PLAYING;
    const Kind kinds[] = {
        { &pb::SeatView::voted_cancel, "vote to cancel the game", "cancel" },
        { &pb::SeatView::voted_leader,
            v.leader_hidden() ? "vote to show the leader" : "vote to hide the leader", "leader" },
        { &pb::SeatView::voted_new_game, "vote for a new game", "new", playing },
        { &pb::SeatView::voted_take_back, take_back_words(v), "takeback" },
    };
    auto add = [](std::string& names, const std::string& name) {
        names += (names.empty() ? "" : ", ") + name;
    };
    std::vector<std::string> out;
    for (const auto& kind : kinds) {
        // The viewer first, as "you": a name of their own is no news to them.
        std::string voted, not_yet;
        bool you_may = false;
        for (int pass = 0; pass < 2; ++pass)
            for (const auto& seat : v.seats()) {
                bool yours = seat.seat() == v.your_seat();
                if (seat.name().empty() || yours != (pass == 0)) continue;
                std::string name = yours ? "you" : seat.name();
                if ((seat.*kind.voted)())
                    add(voted, name);
                else if (!seat.bot() && seat.connected() && !seat.away())
                    add(not_yet, name);
                else if (!seat.bot() && !seat.away() && kind.waits_for_gone)
                    add(not_yet, name + " (gone; a computer agrees for them past the hold)");
                you_may |= yours && !(seat.*kind.voted)();
            }
        if (voted.empty()) continue;
        std::string line = "* " + kind.what + ": voted " + voted;
        if (!not_yet.empty()) line += "; not yet " + not_yet;
        if (you_may) line += "; to agree: " + how + " " + kind.verb;
        out.push_back(line);
    }
    return out;
}

std::string time_left_words(const pb::RoomView& view) {
    return view.has_turn_ms_left() ? duration_words(view.turn_ms_left()) : "";
}

std::string hold_left_words(const pb::SeatView& seat) {
    return !seat.name().empty() && !seat.connected() && seat.has_hold_ms_left()
        ? duration_words(seat.hold_ms_left())
        : "";
}

std::string duration_words(std::uint32_t ms) {
    auto s = (std::uint64_t { ms } + 999) / 1000;
    auto two = [](std::uint64_t n) { return (n < 10 ? "0" : "") + std::to_string(n); };
    if (s < 60) return std::to_string(s) + " s";
    if (s < 3600) return std::to_string(s / 60) + ":" + two(s % 60);
    return std::to_string(s / 3600) + ":" + two(s / 60 % 60) + ":" + two(s % 60);
}

std::string next_game_words(const pb::RoomView& view, const std::string& vote) {
    bool only_computers = view.seats_size() > 0
        && std::all_of(view.seats().begin(), view.seats().end(),
            [](const pb::SeatView& seat) { return seat.bot(); });
    if (only_computers) {
        auto ms = view.summary().mode().next_game_ms();
        // Under a second is said as it is: 50 ms was "1 s".
        std::string pause
            = ms < 1000 ? std::to_string(ms) + " ms" : std::to_string((ms + 500) / 1000) + " s";
        return "starts by itself " + pause + " after the last one ended "
            + "(only computers play here)";
    }
    // A seat left free after the game holds up the next one until it is taken.
    for (const auto& seat : view.seats())
        if (seat.name().empty())
            return "when seat " + std::to_string(seat.seat() + 1) + " is taken ("
                + (vote.starts_with("/") ? "/start" : "halma start")
                + " puts a computer there) and every player present votes for it";
    // A player gone from the room, or away, does not hold up the next game (nor do spectators
    // vote).
    if (view.your_seat() < 0) return "when every player present votes for it";
    return vote + " (every player present must agree; colours turn)";
}

} // namespace halma::cli
