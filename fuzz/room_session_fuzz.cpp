// A whole session of a room, as its members and the network edge drive it: the input is read as
// a stream of operations (join, move, chat, vote, leave, start, add bots, a bot's move, a daemon
// lost or back, time passing) on the room with a game under way. The promises checked after each
// step are the ones replicas and restarts rely on: every event the host makes is read back by
// the codec and applied by a replica, which stays the host's room (same seq, chat, members); and
// at the end the room replays from its (folded) log as a restarted host and a joining guest
// rebuild it.
#include "daemon/wire/codec.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "fuzz_check.h"
#include "fuzz_room.h"

#include <string_view>
#include <vector>

using namespace halma::fuzz;
namespace wire = halma::daemon::wire;
namespace pb = wire::pb;

namespace {

// The input, byte by byte; zeros once it runs out.
class Reader {
public:
    explicit Reader(std::string_view bytes)
        : bytes_(bytes) { }
    bool done() const { return at_ >= bytes_.size(); }
    std::uint8_t byte() { return done() ? 0 : static_cast<std::uint8_t>(bytes_[at_++]); }
    std::string text() {
        std::size_t n
            = std::min<std::size_t>(byte() * 3u, bytes_.size() - std::min(at_, bytes_.size()));
        std::string out(bytes_.substr(at_, n));
        at_ += n;
        return out;
    }

private:
    std::string_view bytes_;
    std::size_t at_ = 0;
};

struct Session {
    RoomAuthority host = fuzz_room();
    RoomState replica = fuzz_room().state();
    std::vector<std::string> tokens { std::string(kAnnToken), std::string(kBobToken) };
    std::int64_t ms = 1000;

    std::string token(Reader& in) {
        std::uint8_t pick = in.byte();
        if (pick == 0xff) return in.text(); // a made-up token
        return tokens[pick % tokens.size()];
    }
    MemberId member(Reader& in) {
        const auto& members = host.state().members();
        if (members.empty()) return kNoMember;
        auto it = members.begin();
        std::advance(it, in.byte() % members.size());
        return it->first;
    }
    // A legal move of the side to move, or text from the input.
    std::string move_text(Reader& in) {
        std::uint8_t pick = in.byte();
        const auto* game = host.state().game();
        if (pick == 0xff || !game) return in.text();
        halma::engine::MoveList moves;
        game->legal_moves(moves);
        if (moves.size == 0) return "pass";
        auto m = moves.moves[static_cast<std::size_t>(pick % moves.size)];
        return pick & 0x80 ? halma::engine::path_name(
                   halma::engine::move_path(game->position(), game->setup().rules, m))
                           : halma::engine::move_name(m);
    }

    void step(Reader& in) {
        Now now = fuzz_now(ms);
        switch (in.byte() % 11) {
        case 0: {
            std::string name = in.text(), with = token(in);
            bool fresh = in.byte() & 1, spectate = in.byte() & 1;
            if (auto ticket = host.join(name, fresh ? "" : with, spectate, now))
                tokens.push_back(ticket->token);
            break;
        }
        case 1: {
            std::string who = token(in);
            host.act(who, action::Move { move_text(in) }, now, in.text());
            break;
        }
        case 2: {
            std::string who = token(in);
            host.act(who, action::Chat { in.text() }, now);
            break;
        }
        case 3: {
            std::string who = token(in);
            host.act(
                who, action::Vote { in.byte() & 1 ? VoteKind::kCancel : VoteKind::kNewGame }, now);
            break;
        }
        case 4:
            host.act(token(in), action::Leave {}, now);
            break;
        case 5:
            host.act(token(in), action::Start { parse_bot_level(in.text()) }, now);
            break;
        case 6:
            host.add_bots(in.byte() % 7, in.byte() & 1 ? BotLevel::kEasy : BotLevel::kHard, now);
            break;
        case 7:
            if (MemberId bot = host.bot_to_move(); bot != kNoMember) {
                const auto* game = host.state().game();
                halma::engine::MoveList moves;
                game->legal_moves(moves);
                if (moves.size > 0)
                    host.bot_move(
                        bot, moves.moves[static_cast<std::size_t>(in.byte() % moves.size)], now);
            }
            break;
        case 8: {
            MemberId m = member(in);
            host.set_connected(m, in.byte() & 1, now);
            break;
        }
        case 9:
            ms += static_cast<std::int64_t>(in.byte()) * 1000;
            host.tick(fuzz_now(ms));
            break;
        default:
            ms += in.byte();
            break;
        }
        send_out();
    }

    void send_out() {
        for (const RoomEvent& e : host.take_events()) {
            pb::RoomEvent sent;
            wire::to_proto(e, &sent);
            auto back = wire::event_from_proto(sent);
            if (!back) broken("a guest refuses an event the host made", back.error().message);
            if (auto error = replica.apply(*back))
                broken("a replica cannot apply the host's event", *error);
        }
        const RoomState& s = host.state();
        if (replica.seq() != s.seq() || replica.members().size() != s.members().size()
            || replica.chat().size() != s.chat().size() || replica.phase() != s.phase())
            broken("a replica drifted from its host");
    }

    void finish() {
        const RoomState& s = host.state();
        pb::Snapshot snapshot;
        wire::to_proto(s, &snapshot);
        auto guest = wire::state_from_proto(snapshot);
        if (!guest) broken("a guest refuses the host's snapshot", guest.error().message);
        if (guest->seq() != s.seq() || guest->members().size() != s.members().size()
            || guest->chat().size() != s.chat().size())
            broken("a guest's room from the snapshot is not the host's");
        auto restarted = RoomAuthority::restore(
            s.config(), {}, 1, s.log(), host.tokens(), fuzz_now(ms), host.kept_seats());
        if (!restarted)
            broken("a host cannot resume its room from its log", restarted.error().message);
        if (restarted->state().seq() != s.seq()) broken("a resumed room is not at the host's seq");
        if (restarted->kept_seats() != host.kept_seats())
            broken("a resumed room does not keep the seats the host kept for vanished players");
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Reader in({ reinterpret_cast<const char*>(data), size });
    Session session;
    for (int steps = 0; steps < 200 && !in.done(); ++steps) session.step(in);
    session.finish();
    return 0;
}
