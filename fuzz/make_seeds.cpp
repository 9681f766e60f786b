// Writes the seed corpus of the fuzz targets (fuzz/corpus/TARGET/seed-*) from games played
// through the real room code: the messages a peer, a host and a front end send in them, a room's
// files as a host keeps them, and the positions and moves of the game. Run again after the
// protocol changes: `build/fuzz/make_fuzz_seeds fuzz/corpus`. Crash reproducers (crash-*) kept
// beside the seeds are not touched.
#include "daemon/net/room_store.h"
#include "daemon/wire/codec.h"
#include "engine/notation.h"
#include "fuzz_room.h"
#include "room_files.h"
#include "room_test_support.h"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace fs = std::filesystem;
namespace wire = halma::daemon::wire;
namespace pb = wire::pb;
using namespace halma::fuzz;

namespace {

fs::path out_dir;
int written = 0;

void put(const std::string& target, const std::string& name, const std::string& bytes) {
    fs::create_directories(out_dir / target);
    std::ofstream(out_dir / target / ("seed-" + name), std::ios::binary) << bytes;
    ++written;
}

template <class Message> std::string bytes_of(Message& m) {
    m.set_version(wire::kProtocolVersion);
    return m.SerializeAsString();
}

std::string next_move(const RoomAuthority& room) {
    return halma::testing::greedy_text(*room.state().game());
}

void peer_messages() {
    pb::PeerMessage m;
    m.mutable_list_rooms();
    put("peer_message", "list", bytes_of(m));
    m.mutable_join()->set_room("sunday");
    m.mutable_join()->set_name("cid");
    put("peer_message", "join", bytes_of(m));
    m.mutable_join()->set_spectate(true);
    put("peer_message", "spectate", bytes_of(m));
    m.mutable_join()->set_spectate(false);
    m.mutable_join()->set_room(std::string(kRoomId));
    m.mutable_join()->set_token(std::string(kAnnToken));
    m.mutable_join()->set_since_seq(fuzz_room().state().seq() - 1);
    put("peer_message", "rejoin", bytes_of(m));
    m.Clear();
    auto* c = m.mutable_command();
    c->set_room_id(std::string(kRoomId));
    for (auto token : { kAnnToken, kBobToken }) {
        c->set_token(std::string(token));
        c->set_move(next_move(fuzz_room()));
        c->set_command_id("cmd-1");
        put("peer_message", "move-" + std::string(token.substr(0, 1)), bytes_of(m));
    }
    c->set_chat("good luck \xe2\x99\x9f");
    put("peer_message", "chat", bytes_of(m));
    c->set_vote(pb::VOTE_KIND_CANCEL);
    put("peer_message", "vote", bytes_of(m));
    c->mutable_leave();
    put("peer_message", "leave", bytes_of(m));
    c->mutable_start()->set_bot_level("easy");
    put("peer_message", "start", bytes_of(m));
    m.Clear();
    m.mutable_heartbeat();
    put("peer_message", "heartbeat", bytes_of(m));
}

void host_messages() {
    RoomAuthority lively = halma::testing::lively_room();
    pb::HostMessage m;
    auto* joined = m.mutable_joined();
    joined->set_member(1);
    joined->set_seat(0);
    joined->set_token(std::string(kAnnToken));
    wire::to_proto(lively.state(), joined->mutable_snapshot());
    put("host_message", "joined-lively", bytes_of(m));
    joined->clear_snapshot();
    wire::to_proto(fuzz_room().state(), joined->mutable_snapshot());
    put("host_message", "joined", bytes_of(m));
    // A rejoin answered with what came after: a few moves of the room the fuzzer replicates.
    RoomAuthority room = fuzz_room();
    std::uint64_t before = room.state().seq();
    // Each plays the greedy move in turn; the one whose turn it is not is refused.
    for (int i = 0; i < 4; ++i) {
        room.act(kAnnToken, action::Move { next_move(room) }, fuzz_now(100 * i));
        room.act(kBobToken, action::Move { next_move(room) }, fuzz_now(100 * i + 50));
    }
    room.act(kBobToken, action::Chat { "well played" }, fuzz_now(1000));
    room.act(kAnnToken, action::Vote { VoteKind::kCancel }, fuzz_now(1100));
    std::vector<RoomEvent> later = room.take_events();
    joined->clear_snapshot();
    if (!wire::to_proto_after(room.state(), before, joined->mutable_snapshot()))
        std::cerr << "make_fuzz_seeds: the room has no events after " << before << "\n";
    put("host_message", "joined-after", bytes_of(m));
    m.Clear();
    m.mutable_update()->set_room_id(std::string(kRoomId));
    for (std::size_t i = 0; i < later.size() && i < 4; ++i) {
        wire::to_proto(later[i], m.mutable_update()->mutable_event());
        put("host_message", "update-" + std::to_string(i), bytes_of(m));
    }
    m.Clear();
    wire::summarize(lively.state(), "", false, m.mutable_rooms()->add_rooms());
    put("host_message", "rooms", bytes_of(m));
    m.Clear();
    wire::set_error(m.mutable_error(), pb::ERROR_CODE_ILLEGAL_MOVE, "not a legal move: o1-m7");
    put("host_message", "error", bytes_of(m));
}

void api_requests() {
    pb::Request r;
    r.mutable_status();
    put("api_request", "status", bytes_of(r));
    auto* host = r.mutable_host();
    host->set_name("sunday");
    host->mutable_mode()->set_players(3);
    host->mutable_mode()->set_sets_per_player(2);
    host->mutable_mode()->set_rules("jumps=long,spoil=occupied");
    host->set_bots(1);
    host->set_bot_level("easy");
    put("api_request", "host", bytes_of(r));
    r.mutable_list()->set_address("127.0.0.1:7460");
    r.mutable_list()->set_lan(true);
    put("api_request", "list", bytes_of(r));
    r.mutable_join()->set_address("[::1]:7460");
    r.mutable_join()->set_room("k7f3q-9xq2m-aaaaa-bbbbb");
    put("api_request", "join", bytes_of(r));
    r.mutable_view()->set_room("sunday");
    put("api_request", "view", bytes_of(r));
    r.mutable_subscribe()->set_lan(true);
    put("api_request", "subscribe", bytes_of(r));
    auto* a = r.mutable_action();
    a->set_room("sunday");
    a->set_move(next_move(fuzz_room()));
    r.set_request_key("key-1");
    put("api_request", "move", bytes_of(r));
    a->set_chat("hello");
    put("api_request", "chat", bytes_of(r));
    a->set_vote(pb::VOTE_KIND_NEW_GAME);
    put("api_request", "vote", bytes_of(r));
    r.mutable_close()->set_room("sunday");
    put("api_request", "close", bytes_of(r));
}

void room_files() {
    RoomAuthority lively = halma::testing::lively_room();
    for (const RoomAuthority* room : { &fuzz_room(), static_cast<const RoomAuthority*>(&lively) }) {
        RoomFiles files;
        pb::RoomConfig config;
        RoomConfig c = room->state().config();
        c.room_id = kRoomId;
        wire::to_proto(c, &config);
        files.config = config.SerializeAsString();
        files.members = "local 1\n";
        for (const auto& [member, token] : room->tokens())
            files.members += "member " + std::to_string(member) + " " + token + "\n";
        for (const auto& e : room->state().log()) files.events += encode_event_record(e);
        std::string name = room == &lively ? "lively" : "two-players";
        put("room_files", name, pack(files));
        files.events.resize(files.events.size() - 3); // a torn last append
        put("room_files", name + "-torn", pack(files));
    }
}

// Operations for room_session (room_session_fuzz.cpp reads them): op byte, then its arguments.
void sessions() {
    std::string moves; // ann and bob each play a legal move, turn by turn (one is refused)
    for (int i = 0; i < 12; ++i)
        moves += std::string { 1, 0, static_cast<char>(i % 5), 0 }
            + std::string { 1, 1, static_cast<char>(i % 5), 0 };
    put("room_session", "moves", moves);
    std::string chat; // a spectator joins and chats past its rate, time passes, it leaves
    chat += std::string { 0, 3, 'c', 'i', 'd', 0, 1, 1 };
    for (int i = 0; i < 14; ++i) chat += std::string { 2, 2, 2, 'h', 'e', 'l', 'l', 'o', '!' };
    chat += std::string { 9, 30, 2, 2, 1, 'a', 'b', 'c', 4, 2 };
    put("room_session", "chat", chat);
    std::string bots; // bob vanishes, time runs out on him, bots stand in and play
    bots += std::string { 8, 1, 0, 9, 120, 9, 120 };
    for (int i = 0; i < 10; ++i)
        bots += std::string { 7, static_cast<char>(i), 1, 0, static_cast<char>(i), 0 };
    bots += std::string { 8, 1, 1, 3, 0, 1, 3, 1, 1, 9, 10 };
    put("room_session", "bots", bots);
}

void notation() {
    const auto& game = *fuzz_room().state().game();
    put("notation", "position", game.position().to_string());
    put("notation", "move", next_move(fuzz_room()));
    put("notation", "path", "q1-o1-m3-k5");
    put("notation", "cell", "I5");
    put("notation", "rules", halma::engine::Rules::parse("jumps=long,unused=filled")->to_string());
}

void config_files(const fs::path& repo) {
    std::ifstream in(repo / "systemd/halmad.toml", std::ios::binary);
    put("config_file", "systemd", std::string(std::istreambuf_iterator<char>(in), {}));
    put("config_file", "rooms",
        "listen = \"127.0.0.1:0\"\nname = \"ann\"\nmdns = false\ninterfaces = [\"eth0\"]\n"
        "[[room]]\nname = \"sunday\"\nvisibility = \"friends\"\nplayers = 3\nsets = 2\n"
        "rules = \"jumps=long\"\nbots = 2\nbot-level = \"easy\"\nmove-limit = 300\n");
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: make_fuzz_seeds REPO/fuzz/corpus\n";
        return 2;
    }
    out_dir = argv[1];
    peer_messages();
    host_messages();
    api_requests();
    room_files();
    sessions();
    notation();
    config_files(out_dir.parent_path().parent_path());
    std::cout << written << " seeds written under " << out_dir.string() << "\n";
    return 0;
}
