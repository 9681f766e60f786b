#include "daemon/net/standing_room_diff.h"

#include <variant>

namespace halma::daemon {

namespace {

std::string visibility_word(Visibility v) {
    return v == Visibility::kFriends ? "friends" : "public";
}

// The computers a room was made with. Its config keeps how many; a room made before it did
// has them as the first events of its log: joins in a row from seq 1, stamped the moment the
// room was made (the fold keeps them, as they never leave). A start's computers come later,
// after a player's join; a stand-in's, mid-game.
int made_bots(const RoomState& room) {
    if (room.config().bots) return *room.config().bots;
    const std::vector<RoomEvent>& log = room.log();
    int bots = 0;
    for (std::size_t i = 0; i < log.size(); ++i) {
        const auto* joined = std::get_if<event::MemberJoined>(&log[i].body);
        if (!joined || !joined->bot || log[i].seq != i + 1 || log[i].time_ms != log[0].time_ms)
            break;
        ++bots;
    }
    return bots;
}

} // namespace

std::vector<std::string> standing_room_differences(
    const StandingRoom& spec, const RoomState& room, BotLevel default_bot_level) {
    std::vector<std::string> out;
    auto differ = [&](const char* setting, const std::string& in_room, const std::string& in_file) {
        if (in_room != in_file)
            out.push_back(std::string(setting) + ": " + in_room + " in the room, " + in_file
                + " in the file");
    };
    const RoomConfig& made = room.config();
    differ("visibility", visibility_word(made.visibility), visibility_word(spec.visibility));
    differ("players", std::to_string(made.mode.players), std::to_string(spec.mode.players));
    differ("sets", std::to_string(made.mode.sets_per_player),
        std::to_string(spec.mode.sets_per_player));
    differ("rules", made.mode.rules.to_string(), spec.mode.rules.to_string());
    differ(
        "move-limit", std::to_string(made.mode.move_limit), std::to_string(spec.mode.move_limit));
    differ("hide-leader", made.mode.hide_leader ? "true" : "false",
        spec.mode.hide_leader ? "true" : "false");
    differ("next-game-ms", std::to_string(made.mode.next_game_ms),
        std::to_string(spec.mode.next_game_ms));
    differ("turn-limit-s", std::to_string(made.mode.turn_limit_s),
        std::to_string(spec.mode.turn_limit_s));
    // The computers it was made with, not those seated now: a start fills the free seats with
    // more, and a player gone leaves one in their seat; neither is a change of the file.
    int bots = made_bots(room);
    differ("bots", std::to_string(bots), std::to_string(spec.bots));
    // They joined first: member ids only grow, so the first bot of the room is one of them.
    const Member* first_bot = nullptr;
    for (const auto& [id, m] : room.members())
        if (m.bot && !first_bot) first_bot = &m;
    if (first_bot && bots > 0 && spec.bots > 0)
        differ("bot-level", std::string(bot_level_name(first_bot->bot_level)),
            std::string(bot_level_name(spec.bot_level.value_or(default_bot_level))));
    return out;
}

std::string shell_word(const std::string& text) {
    bool plain = !text.empty()
        && text.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                  "-_.,:/+@%")
            == std::string::npos;
    if (plain) return text;
    std::string quoted = "'";
    for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

} // namespace halma::daemon
