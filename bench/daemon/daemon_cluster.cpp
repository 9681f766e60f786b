#include "daemon_cluster.h"

#include "engine/geometry.h"
#include "engine/notation.h"
#include "engine/position.h"

#include <stdexcept>
#include <tuple>

namespace halma::bench {

namespace {

using std::chrono::milliseconds;

const char* const kNames[] = { "ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal" };
constexpr milliseconds kMoveTimeout { 5000 };

double micros_since(Clock::time_point t0, Clock::time_point t1) {
    return std::chrono::duration<double, std::micro>(t1 - t0).count();
}

} // namespace

DaemonCluster::DaemonCluster(zmq::context_t& context, Children& children, const std::string& halmad,
    const std::filesystem::path& dir, int count, const std::vector<std::string>& extra)
    : children_(children) {
    if (count < 2 || count > 6) throw std::invalid_argument("2 to 6 daemons");
    // Step 1: the processes, each with its own port and directories, heartbeats at defaults.
    for (int i = 0; i < count; ++i) {
        Daemon d;
        d.name = kNames[i];
        d.address = "127.0.0.1:" + std::to_string(free_port());
        d.dir = dir / d.name;
        d.log = dir / (d.name + ".log");
        std::filesystem::create_directories(d.dir);
        std::vector<std::string> args { halmad, "--listen", d.address, "--runtime-dir",
            (d.dir / "run").string(), "--state-dir", (d.dir / "state").string(), "--name", d.name };
        args.insert(args.end(), extra.begin(), extra.end());
        d.pid = children.spawn(args, d.log);
        daemons_.push_back(std::move(d));
    }
    for (auto& d : daemons_) {
        auto sock = d.dir / "run" / "api.sock";
        bool up = wait_for(milliseconds(10'000),
            [&] { return std::filesystem::exists(sock) || !children.running(d.pid); });
        if (!up || !children.running(d.pid))
            throw std::runtime_error(
                "halmad " + d.name + " did not start; its log:" + log_tail(d.log));
        d.front_end = std::make_unique<FrontEnd>(context, "ipc://" + sock.string());
        d.front_end->subscribe();
    }
    // Step 2: one room for everyone, joined by address.
    pb::Request host;
    host.mutable_host()->set_name("bench");
    host.mutable_host()->mutable_mode()->set_players(static_cast<std::uint32_t>(count));
    daemons_[0].front_end->ok(host, "host");
    for (std::size_t i = 1; i < daemons_.size(); ++i) {
        pb::Request join;
        join.mutable_join()->set_address(daemons_[0].address);
        join.mutable_join()->set_room("bench");
        daemons_[i].front_end->ok(join, "join");
    }
    wait_for_game(1);
}

void DaemonCluster::wait_for_game(std::uint32_t game_number) {
    // Every replica at the same event, in the game asked for.
    std::vector<pb::RoomView> views;
    bool ready = wait_for(milliseconds(10'000), [&] {
        views.clear();
        for (auto& d : daemons_) views.push_back(d.front_end->view());
        for (const auto& v : views)
            if (v.summary().phase() != pb::PHASE_PLAYING || v.game_number() != game_number
                || v.seq() != views[0].seq())
                return false;
        return true;
    });
    if (!ready)
        throw std::runtime_error(
            "game " + std::to_string(game_number) + " did not start on every daemon");
    ++games_;
    seen_boards_.clear();
    std::size_t movers = 0;
    for (std::size_t i = 0; i < views.size(); ++i)
        if (views[i].your_turn()) mover_ = i, ++movers;
    if (movers != 1)
        throw std::runtime_error(std::to_string(movers) + " daemons think it is their turn");
    drain_events(milliseconds(50));
}

void DaemonCluster::drain_events(milliseconds quiet) {
    pb::Event e;
    std::vector<zmq::pollitem_t> items;
    for (auto& d : daemons_) items.push_back({ d.front_end->events().handle(), 0, ZMQ_POLLIN, 0 });
    for (int rounds = 0; rounds < 1000 && zmq::poll(items, quiet) > 0; ++rounds)
        for (auto& d : daemons_)
            while (d.front_end->next_event(e)) { }
}

void DaemonCluster::new_game() {
    for (auto& d : daemons_) {
        pb::Request vote;
        vote.mutable_action()->set_vote(pb::VOTE_KIND_NEW_GAME);
        d.front_end->ok(vote, "new game vote");
    }
    wait_for_game(static_cast<std::uint32_t>(games_ + 1));
}

// The legal move that brings a marble nearest its home, the one furthest back first; a move
// back to a board already seen this game only when nothing else is left.
std::string DaemonCluster::choose_move(const pb::RoomView& view) {
    auto pos = engine::Position::parse(view.position());
    if (!pos) throw std::runtime_error("a position that does not parse: " + view.position());
    const auto& g = engine::kGeometry;
    std::tuple<bool, int, int, std::string> best_key {};
    std::string best, best_board;
    for (const auto& text : view.legal_moves()) {
        if (text == "pass") return text;
        auto path = engine::parse_path(text);
        if (!path) throw std::runtime_error("a legal move that does not parse: " + text);
        engine::Cell from = path->front(), to = path->back();
        engine::SetId home = engine::home_of(engine::set_of(pos->at(from)));
        int gain = g.distance_to_apex[home][from] - g.distance_to_apex[home][to];
        std::string board(pos->pieces().begin(), pos->pieces().end());
        std::swap(board[from], board[to]);
        std::tuple key { !seen_boards_.contains(board), gain, int(g.distance_to_apex[home][from]),
            text };
        if (best.empty() || key > best_key) best = text, best_key = key, best_board = board;
    }
    if (best.empty()) throw std::runtime_error("no legal move offered on the mover's turn");
    seen_boards_.insert(best_board);
    return best;
}

MoveTiming DaemonCluster::play_one() {
    auto& d = daemons_[mover_];
    pb::RoomView view = d.front_end->view();
    if (!view.your_turn()) throw std::runtime_error(d.name + "'s view says it is not its turn");
    std::string text = choose_move(view);
    auto path = engine::parse_path(text);
    std::uint64_t seq = view.seq() + 1;
    pb::Request request;
    request.mutable_action()->set_move(text);

    std::vector<zmq::pollitem_t> items;
    for (auto& x : daemons_) items.push_back({ x.front_end->events().handle(), 0, ZMQ_POLLIN, 0 });
    items.push_back({ d.front_end->requests().handle(), 0, ZMQ_POLLIN, 0 });
    std::vector<bool> got(daemons_.size(), false);
    std::size_t have = 0, turns = 0, next_mover = 0;
    pb::Phase phase = pb::PHASE_PLAYING;
    MoveTiming timing;
    timing.by_host = mover_ == 0;
    bool replied = false;

    auto t0 = Clock::now();
    std::uint64_t id = d.front_end->send(std::move(request));
    auto until = t0 + kMoveTimeout;
    while (have < daemons_.size() || !replied) {
        auto left = std::chrono::ceil<milliseconds>(until - Clock::now());
        if (left.count() <= 0)
            throw std::runtime_error("move " + text + " by " + d.name + " reached only "
                + std::to_string(have) + " of " + std::to_string(daemons_.size())
                + " front ends in " + std::to_string(kMoveTimeout.count()) + " ms");
        zmq::poll(items, left);
        for (std::size_t i = 0; i < daemons_.size(); ++i) {
            pb::Event e;
            while (daemons_[i].front_end->next_event(e)) {
                auto now = Clock::now();
                if (!e.has_event() || !e.event().has_move()) {
                    ++other_events_;
                    continue;
                }
                const auto& m = e.event().move();
                bool same = e.event().seq() == seq
                    && (text == "pass" ? m.kind() == pb::MOVE_KIND_PASS
                                       : m.from() == path->front() && m.to() == path->back());
                if (!same || got[i])
                    throw std::runtime_error(daemons_[i].name + " got move seq "
                        + std::to_string(e.event().seq()) + " (" + e.text() + "), expected seq "
                        + std::to_string(seq) + " " + text);
                got[i] = true;
                ++delivered_;
                event_bytes_ = daemons_[i].front_end->last_event_bytes();
                if (e.your_turn()) next_mover = i, ++turns;
                if (i == 0) phase = e.phase();
                if (++have == daemons_.size()) timing.all_front_ends_us = micros_since(t0, now);
            }
        }
        pb::Reply reply;
        while (d.front_end->next_reply(reply)) {
            if (reply.request_id() != id) continue;
            if (reply.has_error())
                throw std::runtime_error(
                    d.name + ": move " + text + " refused: " + reply.error().message());
            replied = true;
            timing.mover_reply_us = micros_since(t0, Clock::now());
        }
    }
    if (phase == pb::PHASE_PLAYING) {
        if (turns != 1)
            throw std::runtime_error(
                "after " + text + ", " + std::to_string(turns) + " daemons think it is their turn");
        mover_ = next_mover;
    } else if (phase == pb::PHASE_OVER) {
        new_game();
    } else {
        throw std::runtime_error("the game stopped (phase " + pb::Phase_Name(phase) + ")");
    }
    return timing;
}

std::vector<MoveTiming> DaemonCluster::play(int count) {
    std::vector<MoveTiming> out;
    out.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        for (auto& d : daemons_)
            if (!children_.running(d.pid))
                throw std::runtime_error(
                    "halmad " + d.name + " exited; its log:" + log_tail(d.log));
        out.push_back(play_one());
    }
    return out;
}

} // namespace halma::bench
