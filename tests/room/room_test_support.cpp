#include "room_test_support.h"

#include "engine/geometry.h"
#include "engine/notation.h"

#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace halma::testing {

RoomConfig room_config(int players, int sets_per_player, std::string_view rules, int move_limit) {
    RoomConfig config;
    config.room_id = "00112233445566778899aabbccddeeff";
    config.name = "sunday";
    config.mode.players = players;
    config.mode.sets_per_player = sets_per_player;
    config.mode.rules = engine::Rules::parse(rules).value();
    config.mode.move_limit = move_limit;
    return config;
}

Now at_ms(std::int64_t ms) {
    return Now { std::chrono::steady_clock::time_point {} + std::chrono::hours(1000)
            + std::chrono::milliseconds(ms),
        1'700'000'000'000 + ms };
}

engine::Move greedy_move(const engine::Game& game) {
    engine::MoveList list;
    game.legal_moves(list);
    engine::SetId s = game.set_to_move();
    engine::Position pos = game.position();
    auto cost = [&] {
        int sum = 0;
        // Squared distances make stragglers expensive, which is enough to finish games.
        for (engine::Bitboard b = pos.marbles(s); b;) {
            int d = engine::distance_to_home(s, b.pop_first());
            sum += d * d;
        }
        return sum;
    };
    std::vector<engine::Move> best;
    int best_cost = 1 << 30;
    for (engine::Move m : list) {
        pos.make(m);
        int c = cost();
        pos.unmake(m, s);
        if (c < best_cost) best_cost = c, best.clear();
        if (c == best_cost) best.push_back(m);
    }
    // Equals taken in turn (a pure function of the game), so a marble is not moved back and
    // forth for ever.
    return best[(game.history().size() * 7919) % best.size()];
}

std::string greedy_text(const engine::Game& game) {
    return engine::move_name(greedy_move(game));
}

bool valid_utf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        auto c = static_cast<unsigned char>(s[i]);
        std::size_t len = c < 0x80 ? 1
            : (c >> 5) == 0x6      ? 2
            : (c >> 4) == 0xe      ? 3
            : (c >> 3) == 0x1e     ? 4
                                   : 0;
        if (len == 0 || i + len > s.size()) return false;
        std::uint32_t cp = len == 1 ? c : c & (0x7f >> len);
        for (std::size_t k = 1; k < len; ++k) {
            auto cc = static_cast<unsigned char>(s[i + k]);
            if ((cc & 0xc0) != 0x80) return false;
            cp = (cp << 6) | (cc & 0x3f);
        }
        static constexpr std::uint32_t kMin[] = { 0, 0, 0x80, 0x800, 0x10000 };
        if (cp < kMin[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
        i += len;
    }
    return true;
}

namespace {

template <class... Ts> struct Overloaded : Ts... { using Ts::operator()...; };

// A level is a bot's only ("bots only" in room_event.h): a person's is not compared.
BotLevel level_of(bool bot, BotLevel level) {
    return bot ? level : BotLevel::kHard;
}

auto fields(const event::MemberJoined& e) {
    return std::make_tuple(
        e.member, e.name, e.seat, e.bot, level_of(e.bot, e.bot_level), e.seat_open);
}
auto fields(const event::MemberLeft& e) {
    return std::tie(e.member, e.timed_out);
}
auto fields(const event::Connection& e) {
    return std::tie(e.member, e.connected, e.hold_ms);
}
auto fields(const event::Chat& e) {
    return std::tie(e.member, e.text);
}
auto fields(const event::GameStarted& e) {
    return std::tie(e.game_number, e.first_set, e.seat_player);
}
auto fields(const event::MovePlayed& e) {
    return std::tie(e.seat, e.move, e.path, e.by_computer);
}
auto fields(const event::VoteCast& e) {
    return std::tie(e.member, e.kind);
}
auto fields(const event::GameCancelled&) {
    return std::tuple<>();
}
auto fields(const event::RoomClosed&) {
    return std::tuple<>();
}
auto fields(const event::LeaderDisplay& e) {
    return std::tie(e.hidden);
}
auto fields(const event::MovesTakenBack& e) {
    return std::tie(e.count);
}

std::string standings_text(const RoomState& s) {
    std::ostringstream out;
    if (!s.game()) return "no game";
    for (const auto& st : s.game()->standings())
        out << st.player << ':' << st.place << ':' << st.finished << ':' << st.moves << ':'
            << st.distance_left << ' ';
    return out.str();
}

} // namespace

bool same_event(const RoomEvent& a, const RoomEvent& b) {
    if (a.seq != b.seq || a.time_ms != b.time_ms || a.body.index() != b.body.index()) return false;
    return std::visit(
        [&](const auto& x) {
            const auto& y = std::get<std::decay_t<decltype(x)>>(b.body);
            return fields(x) == fields(y);
        },
        a.body);
}

std::optional<std::string> state_difference(const RoomState& a, const RoomState& b) {
    const auto &ca = a.config(), &cb = b.config();
    if (ca.room_id != cb.room_id || ca.name != cb.name || ca.visibility != cb.visibility
        || ca.code != cb.code)
        return "config";
    if (ca.mode.players != cb.mode.players || ca.mode.sets_per_player != cb.mode.sets_per_player
        || !(ca.mode.rules == cb.mode.rules) || ca.mode.move_limit != cb.mode.move_limit
        || ca.mode.hide_leader != cb.mode.hide_leader
        || ca.mode.next_game_ms != cb.mode.next_game_ms)
        return "mode";
    if (a.seq() != b.seq())
        return "seq " + std::to_string(a.seq()) + " vs " + std::to_string(b.seq());
    for (std::size_t i = 0; i < a.log().size(); ++i)
        if (!same_event(a.log()[i], b.log()[i])) return "log event " + std::to_string(i + 1);
    if (a.members().size() != b.members().size()) return "member count";
    for (const auto& [id, m] : a.members()) {
        const Member* o = b.member(id);
        if (!o) return "member " + std::to_string(id) + " missing";
        if (std::make_tuple(m.id, m.name, m.seat, m.bot, level_of(m.bot, m.bot_level), m.connected,
                m.seat_open, m.away)
            != std::make_tuple(o->id, o->name, o->seat, o->bot, level_of(o->bot, o->bot_level),
                o->connected, o->seat_open, o->away))
            return "member " + std::to_string(id);
    }
    for (int s = 0; s < a.seats(); ++s) {
        if (a.seat_holder(s) != b.seat_holder(s)) return "holder of seat " + std::to_string(s);
        if (a.player_of_seat(s) != b.player_of_seat(s))
            return "player of seat " + std::to_string(s);
    }
    if (a.phase() != b.phase()) return "phase";
    if (a.game_number() != b.game_number()) return "game number";
    if (a.seat_to_move() != b.seat_to_move()) return "seat to move";
    if (a.leader_seat() != b.leader_seat()) return "leader";
    if ((a.game() == nullptr) != (b.game() == nullptr)) return "game presence";
    if (a.game()) {
        if (!(a.game()->position() == b.game()->position())) return "position";
        if (a.game()->history().size() != b.game()->history().size()) return "history";
    }
    // The moves' names a view lists are the game's history, named (RoomState keeps them).
    for (const RoomState* s : { &a, &b }) {
        std::vector<std::string> named;
        if (s->game())
            for (const auto& m : s->game()->history())
                named.push_back(m.move.is_pass() ? "pass" : engine::path_name(m.path));
        if (s->move_names() != named) return "move names (not the game's history)";
    }
    if (standings_text(a) != standings_text(b)) return "standings";
    if (a.chat().size() != b.chat().size()) return "chat length";
    for (std::size_t i = 0; i < a.chat().size(); ++i) {
        const auto &x = a.chat()[i], &y = b.chat()[i];
        if (std::tie(x.seq, x.time_ms, x.name, x.text)
            != std::tie(y.seq, y.time_ms, y.name, y.text))
            return "chat line " + std::to_string(i);
    }
    for (auto kind :
        { VoteKind::kNewGame, VoteKind::kCancel, VoteKind::kLeader, VoteKind::kTakeBack })
        if (a.votes(kind) != b.votes(kind)) return "votes";
    if (a.take_back_asker() != b.take_back_asker()) return "who asks to take back";
    if (a.last_played().size() != b.last_played().size()) return "last played";
    for (std::size_t i = 0; i < a.last_played().size(); ++i)
        if (!(a.last_played()[i].move == b.last_played()[i].move)
            || a.last_played()[i].path != b.last_played()[i].path)
            return "last played move";
    for (const auto& [id, m] : a.members())
        if (a.name_of(id) != b.name_of(id)) return "name of " + std::to_string(id);
    return std::nullopt;
}

std::optional<std::string> replay(
    const RoomConfig& config, const std::vector<RoomEvent>& log, RoomState& out) {
    out = RoomState(config);
    for (const auto& e : log)
        if (auto error = out.replay(e)) return "event " + std::to_string(e.seq) + ": " + *error;
    return std::nullopt;
}

TwoPlayers::TwoPlayers(AuthorityOptions options, RoomConfig config)
    : room(std::move(config), options, kSeed)
    , ann(room.join("ann", "", false, at_ms(0)).value())
    , bob(room.join("bob", "", false, at_ms(10)).value()) { }

} // namespace halma::testing

namespace halma::testing {

RoomAuthority lively_room(const std::function<void(RoomAuthority&)>& step) {
    AuthorityOptions options;
    options.bots_available = true;
    options.hold = std::chrono::milliseconds(1000);
    RoomConfig config = room_config(3, 1, "jumps=long,rest=any", 200);
    config.visibility = Visibility::kFriends;
    config.code = "k7f3q9xq2ma0b1cd2e3f";
    RoomAuthority room(config, options, kSeed);
    std::int64_t t = 0;
    auto ok = [&](std::optional<Refusal> refusal) {
        if (refusal) throw std::runtime_error("refused: " + refusal->message);
        if (step) step(room);
    };
    std::map<MemberId, std::string> tokens;
    auto join = [&](std::string name, bool spectate) {
        auto ticket = room.join(name, "", spectate, at_ms(++t));
        if (!ticket) throw std::runtime_error("join refused: " + ticket.error().message);
        tokens[ticket->member] = ticket->token;
        if (step) step(room);
        return *ticket;
    };
    auto play_on = [&](int plies) {
        for (int i = 0; i < plies && room.state().phase() == Phase::kPlaying; ++i) {
            engine::Move m = greedy_move(*room.state().game());
            if (MemberId bot = room.bot_to_move(); bot != kNoMember)
                ok(room.bot_move(bot, m, at_ms(++t)));
            else
                ok(room.act(tokens.at(room.state().seat_holder(room.state().seat_to_move())),
                    action::Move { engine::move_name(m) }, at_ms(++t)));
        }
    };

    auto ann = join("ann", false);
    auto wes = join("wes", true);
    auto bob = join("bob", false);
    ok(room.act(wes.token, action::Chat { "good luck\x1b[0m, Zoë \xf0\x9f\x8e\xb2" }, at_ms(++t)));
    ok(room.act(ann.token, action::Start { BotLevel::kEasy }, at_ms(++t)));
    play_on(9);
    ok(room.act(bob.token, action::Chat { "brb" }, at_ms(++t)));
    room.set_connected(bob.member, false, at_ms(++t));
    if (step) step(room);
    ok(room.act(ann.token, action::Vote { VoteKind::kCancel }, at_ms(++t)));
    room.join("bob", bob.token, false, at_ms(++t)).value();
    if (step) step(room);
    ok(room.act(ann.token, action::Vote { VoteKind::kNewGame }, at_ms(++t)));
    ok(room.act(bob.token, action::Vote { VoteKind::kNewGame }, at_ms(++t)));
    play_on(7);
    ok(room.act(wes.token, action::Leave {}, at_ms(++t)));
    room.set_connected(bob.member, false, at_ms(++t));
    if (step) step(room);
    t += 2000;
    room.tick(at_ms(t)); // bob's hold runs out: a computer plays his seat
    if (step) step(room);
    play_on(2);
    join("cat", true); // the seat is bob's to take back: cat can only watch
    room.join("bob", bob.token, false, at_ms(++t)).value();
    if (step) step(room);
    join("dan", true);
    play_on(5);
    // Ann takes back her last move (and those after it), once bob agrees.
    ok(room.act(ann.token, action::Vote { VoteKind::kTakeBack }, at_ms(++t)));
    ok(room.act(bob.token, action::Vote { VoteKind::kTakeBack }, at_ms(++t)));
    play_on(2);
    ok(room.act(ann.token, action::Vote { VoteKind::kNewGame }, at_ms(++t)));
    return room;
}

const std::vector<std::string> kWalledInGame = {
    "o3-m9",
    "c2-e6",
    "o2-m6",
    "c1-e7",
    "n2-l5",
    "d1-f6",
    "o1-m5-k5",
    "e6-g6",
    "n1-l6-j4",
    "d2-f7-h5",
    "m6-k4-i4",
    "f6-h6-h4-j5-j3",
    "l5-j5-h4-h6-f6",
    "e7-g5-i5-i3-k3",
    "k5-i3-i5-g5-e7",
    "c3-e9",
    "e7-c3",
    "d4-f9",
    "n4-l9",
    "b2-d4",
    "m9-k9",
    "e9-g9",
    "l9-j9",
    "f9-h9",
    "k9-i9",
    "h9-j10-j8",
    "i4-h4",
    "g6-i4-k4",
    "h4-g4",
    "j3-l5",
    "p2-o3",
    "k3-k5-m5",
    "o3-m7",
    "k4-m6-m8-o2",
    "n3-l6-l4",
    "h5-i4",
    "p1-n3-l6",
    "i4-k4-m6-m8",
    "m7-k5-i3",
    "l5-l7-n4",
    "j4-h3-f5-f7",
    "d4-e9",
    "l4-k3",
    "e9-f9",
    "f6-e7",
    "d3-f6-f8-f10-h8",
    "f7-d2",
    "g9-i7-k9",
    "e7-c1",
    "b1-d1",
    "l6-k6",
    "d1-e5",
    "c1-b1",
    "f9-g9",
    "k6-j6",
    "g9-i7",
    "j6-i6",
    "h8-j7",
    "g4-f5",
    "e5-g5",
    "i6-h6",
    "i7-k7",
    "j9-i8",
    "j8-j6-l8-n3-p1",
    "i9-h9",
    "j7-l7",
    "f5-e5",
    "k7-m7-m9-o3",
    "i3-h4",
    "n4-p2",
    "h4-f6",
    "l7-n4",
    "i8-h8",
    "m8-n3",
    "h9-h7-h5-f5-f7",
    "g5-e7-g7-i5",
    "k3-j3",
    "m5-n1",
    "h8-g9",
    "i5-j6",
    "f7-e7",
    "n1-o1",
    "f6-d3",
    "k9-l9",
    "d2-d4-b2",
    "j6-k6",
    "h6-g6",
    "l9-m9",
    "e5-d1",
    "k6-l6",
    "j3-i2",
    "l6-m7",
    "d1-c1",
    "m7-n2",
    "d3-c2",
    "n3-n1",
    "i2-h3",
    "n1-n3",
    "h3-g3",
    "n2-n1",
    "g9-f9",
    "m9-m8",
    "e7-d2",
    "m8-m7",
    "g6-f6",
    "m7-n2",
    "f6-e6",
    "pass",
    "e6-d1",
    "pass",
    "g3-f4",
    "pass",
    "f9-e9",
    "pass",
    "f4-e5",
    "pass",
    "e9-d4",
    "pass",
    "d4-d3",
    "pass",
    "d2-d4",
    "pass",
    "d3-d2",
    "pass",
    "d2-d3",
    "pass",
    "e5-e6",
    "pass",
    "e6-d2",
    "pass",
    "pass",
    "pass",
    "pass",
    "pass",
    "pass",
    "pass",
    "pass",
    "pass",
    "pass",
    "pass",
};
} // namespace halma::testing
