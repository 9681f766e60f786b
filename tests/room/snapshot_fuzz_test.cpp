// A small, deterministic fuzz loop in the manner of libFuzzer: a host's snapshot, mutated at the
// byte level and at the field level, goes through state_from_proto as a peer's would. Nothing
// may crash, and a snapshot that is accepted must be a room that replays to itself and can be
// shown.
#include "daemon/wire/codec.h"
#include "room_test_support.h"

#include <chrono>
#include <gtest/gtest.h>
#include <random>

using namespace halma::testing;
namespace wire = halma::daemon::wire;
namespace pb = halma::v1;

namespace {

constexpr int kByteRounds = 5000;
constexpr int kFieldRounds = 3000;

const pb::Snapshot& base_snapshot() {
    static const pb::Snapshot snapshot = [] {
        pb::Snapshot s;
        wire::to_proto(lively_room().state(), &s);
        return s;
    }();
    return snapshot;
}

void mutate_bytes(std::string& s, std::mt19937_64& rng) {
    // Mostly one byte changed in place: inserting or erasing breaks the lengths of the nested
    // messages around it, and such bytes seldom parse at all.
    int n = rng() % 4 ? 1 : 2;
    for (int k = 0; k < n && !s.empty(); ++k) {
        std::size_t at = rng() % s.size();
        static constexpr int kKinds[] = { 0, 0, 0, 1, 1, 1, 2, 3, 4, 5, 5 };
        switch (kKinds[rng() % std::size(kKinds)]) {
        case 0:
            s[at] = static_cast<char>(s[at] ^ (1 << (rng() % 8)));
            break;
        case 1:
            s[at] = static_cast<char>(rng());
            break;
        case 2:
            s.insert(at, 1, static_cast<char>(rng()));
            break;
        case 3:
            s.erase(at, 1 + rng() % 8);
            break;
        case 4: { // copy a chunk elsewhere: repeats fields and events
            std::size_t len = 1 + rng() % 32, from = rng() % s.size();
            s.insert(at, s.substr(from, len));
            break;
        }
        default: { // an interesting small number in a byte
            static constexpr char kValues[] = { 0, 1, 2, 5, 6, 0x40, 0x78, 0x79, 0x7f, '\xff' };
            s[at] = kValues[rng() % sizeof kValues];
            break;
        }
        }
    }
}

// Changes one field of one event to a value near the edges of what it may hold.
void mutate_fields(pb::Snapshot& s, std::mt19937_64& rng) {
    static constexpr std::int64_t kEdges[] = { -2, -1, 0, 1, 2, 3, 5, 6, 63, 64, 120, 121, 255 };
    auto edge = [&] { return kEdges[rng() % std::size(kEdges)]; };
    // Half the time the room as it was earlier: a change near the end of a log is less often
    // caught by the events after it.
    if (rng() % 2) {
        int keep = 1 + static_cast<int>(rng() % static_cast<unsigned>(s.events_size()));
        s.mutable_events()->DeleteSubrange(keep, s.events_size() - keep);
    }
    int n = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < n; ++k) {
        if (s.events_size() == 0) return;
        auto* e
            = s.mutable_events(static_cast<int>(rng() % static_cast<unsigned>(s.events_size())));
        auto u = [&] { return static_cast<std::uint32_t>(edge()); };
        switch (e->body_case()) {
        case pb::RoomEvent::kJoined:
            if (rng() % 2)
                e->mutable_joined()->set_seat(static_cast<std::int32_t>(edge()));
            else
                e->mutable_joined()->set_member(u());
            break;
        case pb::RoomEvent::kLeft:
            e->mutable_left()->set_member(u());
            break;
        case pb::RoomEvent::kConnection:
            e->mutable_connection()->set_member(u());
            break;
        case pb::RoomEvent::kChat:
            e->mutable_chat()->set_member(u());
            break;
        case pb::RoomEvent::kStarted: {
            auto* st = e->mutable_started();
            if (rng() % 3 == 0)
                st->set_first_set(u());
            else if (st->seat_player_size() > 0)
                st->set_seat_player(
                    static_cast<int>(rng() % static_cast<unsigned>(st->seat_player_size())), u());
            break;
        }
        case pb::RoomEvent::kMove: {
            auto* m = e->mutable_move();
            switch (rng() % 4) {
            case 0:
                m->set_seat(static_cast<std::int32_t>(edge()));
                break;
            case 1:
                m->set_from(u());
                break;
            case 2:
                m->set_to(u());
                break;
            default:
                m->set_kind(static_cast<pb::MoveKind>(rng() % 4));
                break;
            }
            break;
        }
        case pb::RoomEvent::kVote:
            e->mutable_vote()->set_member(u());
            break;
        default:
            e->set_seq(static_cast<std::uint64_t>(edge()));
            break;
        }
    }
}

// What a peer does with an accepted snapshot: replays it, shows it to every member, tells its
// events. The invariants first, so a broken room fails here instead of crashing below.
std::optional<std::string> check_accepted(const RoomState& s) {
    RoomState again(s.config());
    if (auto error = replay(s.config(), s.log(), again)) return "does not replay: " + *error;
    if (auto diff = state_difference(s, again)) return "replays differently: " + *diff;
    if (s.game()) {
        for (int p = 0; p < s.config().mode.players; ++p)
            if (s.seat_of_player(p) == kNoSeat)
                return "player " + std::to_string(p) + " has no seat";
        if (s.phase() == Phase::kPlaying && s.seat_to_move() == kNoSeat)
            return "a game is played and no seat is to move";
    }
    for (const auto& [id, m] : s.members()) {
        pb::RoomView v;
        wire::view(s, id, pb::CONNECTION_STATE_CONNECTED, "", &v);
    }
    RoomState told(s.config());
    for (const auto& e : s.log()) {
        (void)told.apply(e);
        (void)wire::describe(told, e);
    }
    return std::nullopt;
}

} // namespace

TEST(SnapshotFuzz, TheBaseSnapshotIsAccepted) {
    auto state = wire::state_from_proto(base_snapshot());
    ASSERT_TRUE(state) << state.error().message;
    EXPECT_FALSE(check_accepted(*state));
}

TEST(SnapshotFuzz, MutatedBytesNeverCrashAndWhatIsAcceptedReplays) {
    std::string base;
    ASSERT_TRUE(base_snapshot().SerializeToString(&base));
    google::protobuf::LogSilencer quiet; // broken UTF-8 in strings is logged as it is refused
    std::mt19937_64 rng(0x5eed);
    int parsed = 0, accepted = 0;
    auto start = std::chrono::steady_clock::now();
    for (int round = 0; round < kByteRounds; ++round) {
        std::string bytes = base;
        mutate_bytes(bytes, rng);
        pb::Snapshot snapshot;
        if (!snapshot.ParseFromString(bytes)) continue;
        ++parsed;
        auto state = wire::state_from_proto(snapshot);
        if (!state) {
            EXPECT_FALSE(state.error().message.empty());
            continue;
        }
        ++accepted;
        RoomState again(state->config());
        auto error = replay(state->config(), state->log(), again);
        ASSERT_FALSE(error) << "round " << round << ": " << *error;
        auto diff = state_difference(*state, again);
        ASSERT_FALSE(diff) << "round " << round << ": " << *diff;
        // And once more through the codec: what a replica would pass on.
        pb::Snapshot out;
        wire::to_proto(*state, &out);
        auto back = wire::state_from_proto(out);
        ASSERT_TRUE(back) << "round " << round << ": " << back.error().message;
        diff = state_difference(*state, *back);
        ASSERT_FALSE(diff) << "round " << round << ": " << *diff;
    }
    auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    RecordProperty("parsed", parsed);
    RecordProperty("accepted", accepted);
    EXPECT_GT(parsed, kByteRounds / 5) << "the mutations rarely parse: the loop tests little";
    EXPECT_GT(accepted, kByteRounds / 50);
    EXPECT_LT(seconds, 30.0);
}

// Field mutations (seats, sets, cells, members, seq...) give snapshots that parse: each must be
// refused with a reason or give a room that replays, survives the codec and can be shown.
TEST(SnapshotFuzz, MutatedFieldsAreRefusedOrGiveARoomThatCanBeShown) {
    std::mt19937_64 rng(0xf1e1d);
    int accepted = 0;
    for (int round = 0; round < kFieldRounds; ++round) {
        pb::Snapshot snapshot = base_snapshot();
        mutate_fields(snapshot, rng);
        auto state = wire::state_from_proto(snapshot);
        if (!state) {
            EXPECT_FALSE(state.error().message.empty());
            continue;
        }
        ++accepted;
        auto problem = check_accepted(*state);
        ASSERT_FALSE(problem) << "round " << round << ": " << *problem;
    }
    RecordProperty("accepted", accepted);
    EXPECT_GT(accepted, kFieldRounds / 20);
}
