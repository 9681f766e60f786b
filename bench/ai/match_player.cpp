#include "match_player.h"

#include "alphabeta_player.h"
#include "bot_players.h"
#include "engine/ai/bot.h"
#include "engine/notation.h"
#include "v1/bot.h"

#include <array>
#include <charconv>

namespace halma::bench {

using namespace halma::engine;

namespace {

std::optional<int> number_in(std::string_view text, int low, int high) {
    int value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc {} || end != text.data() + text.size() || value < low || value > high)
        return std::nullopt;
    return value;
}

} // namespace

Result<std::unique_ptr<MatchPlayer>> MatchPlayer::parse(const std::string& spec) {
    auto player = std::make_unique<MatchPlayer>();
    player->spec_ = spec;
    std::string head = spec.substr(0, spec.find(':'));
    std::string rest = spec.find(':') == std::string::npos ? "" : spec.substr(spec.find(':') + 1);
    if (head == "weights") {
        // The hard bot at the default budget with other search weights: for tuning matches.
        std::array<int, 3> w {};
        std::string_view text = rest;
        for (std::size_t i = 0; i < w.size(); ++i) {
            auto comma = i + 1 < w.size() ? text.find(',') : text.size();
            auto value = number_in(text.substr(0, comma), 0, 1000);
            if (!value || comma == std::string_view::npos)
                return fail("'" + spec + "': weights:STRAGGLER,LATERAL,HOP, each 0 to 1000");
            w[i] = *value;
            text.remove_prefix(std::min(comma + 1, text.size()));
        }
        player->kind_ = Kind::kWeights;
        player->weights_ = ai::EvalWeights { w[0], w[1], w[2] };
    } else if (head == "hard" || head == "v1") {
        player->kind_ = head == "hard" ? Kind::kHard : Kind::kV1;
        if (!rest.empty()) {
            auto ms = number_in(rest, 1, 600'000);
            if (!ms) return fail("'" + spec + "': the budget must be 1 to 600000 ms");
            player->budget_ms_ = *ms;
        }
    } else if (head == "ab") {
        auto depth = number_in(rest, 1, 12);
        if (!depth) return fail("'" + spec + "': ab:DEPTH, DEPTH from 1 to 12");
        player->kind_ = Kind::kAlphaBeta;
        player->depth_ = *depth;
    } else if (head == "easy" || head == "greedy") {
        player->kind_ = head == "easy" ? Kind::kEasy : Kind::kGreedy;
    } else if (head == "engine") {
        auto colon = rest.find(':');
        auto ms = number_in(rest.substr(0, colon), 1, 600'000);
        if (colon == std::string::npos || !ms) return fail("'" + spec + "': engine:MS:COMMAND");
        player->kind_ = Kind::kEngine;
        player->budget_ms_ = *ms;
        player->process_ = std::make_unique<ProtocolPlayer>(rest.substr(colon + 1), *ms);
        if (!player->process_->ready())
            return fail("'" + spec + "' did not start: " + player->process_->problem());
    } else {
        return fail("'" + spec
            + "' is not a player (hard[:MS], v1[:MS], ab:DEPTH, easy, greedy, "
              "engine:MS:COMMAND, weights:S,L,H)");
    }
    return player;
}

Result<void> MatchPlayer::play(Game& game, std::uint64_t seed) {
    if (kind_ == Kind::kEngine) {
        auto text = process_->move(game);
        if (!text) return fail(process_->problem());
        auto played = game.play(*text);
        if (!played) return fail("illegal move '" + *text + "': " + played.error().message);
        return {};
    }
    Move m = Move::pass();
    switch (kind_) {
    case Kind::kHard:
        m = ai::choose_move(game, ai::BotSettings { ai::Level::kHard, budget_ms_, seed });
        break;
    case Kind::kWeights: {
        ai::BotSettings settings { ai::Level::kHard, budget_ms_, seed };
        settings.search_weights = weights_;
        m = ai::choose_move(game, settings);
        break;
    }
    case Kind::kV1:
        m = v1::think(game, budget_ms_, seed).move;
        break;
    case Kind::kAlphaBeta:
        m = alphabeta_move(game, depth_, seed).move;
        break;
    case Kind::kEasy:
        m = ai::choose_move(game, ai::BotSettings { ai::Level::kEasy, budget_ms_, seed });
        break;
    case Kind::kGreedy:
        m = greedy_move(game, seed);
        break;
    case Kind::kEngine:
        break;
    }
    auto played = game.play(m);
    if (!played) return fail("illegal move " + move_name(m) + ": " + played.error().message);
    return {};
}

} // namespace halma::bench
