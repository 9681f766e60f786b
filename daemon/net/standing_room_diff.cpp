#include "daemon/net/standing_room_diff.h"

namespace halma::daemon {

namespace {

std::string visibility_word(Visibility v) {
    return v == Visibility::kFriends ? "friends" : "public";
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
    // The computers seated now (not those standing in for a person who left or vanished).
    int bots = 0;
    std::optional<BotLevel> level;
    for (const auto& [id, m] : room.members())
        if (m.bot && m.seat != kNoSeat && !m.seat_open) ++bots, level = m.bot_level;
    differ("bots", std::to_string(bots), std::to_string(spec.bots));
    if (level && spec.bots > 0)
        differ("bot-level", std::string(bot_level_name(*level)),
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
