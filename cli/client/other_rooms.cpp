#include "cli/client/other_rooms.h"

#include "cli/client/shell_word.h"

#include <algorithm>
#include <utility>

namespace halma::cli {

OtherRooms::OtherRooms(DaemonConnection daemon, std::string shown)
    : daemon_(std::move(daemon))
    , link_(daemon_)
    , shown_(std::move(shown)) { }

std::chrono::milliseconds OtherRooms::next_wake() const {
    return std::chrono::milliseconds(stale_ ? 500 : -1);
}

void OtherRooms::show(const std::string& room_id) {
    shown_ = room_id;
}

void OtherRooms::forget(const std::string& room_id) {
    rooms_.erase(room_id);
}

OtherRooms::News OtherRooms::tick() {
    auto before = your_move();
    switch (link_.take()) {
    case DaemonLink::Change::kLost:
        // Nothing is known of a daemon that is not there; nor asked (a request would wait).
        rooms_.clear();
        stale_ = true;
        break;
    case DaemonLink::Change::kBack: // a new daemon knows nothing of our subscription
        stale_ = true;
        break;
    case DaemonLink::Change::kNone:
        break;
    }
    // Read again when due, then the events that came meanwhile (those already in a view read
    // are passed over by their seq); a gap in them has everything read again, once more.
    for (int round = 0; round < 2 && link_.up(); ++round) {
        if (stale_) stale_ = !read_all();
        daemon_.drain();
        while (auto e = daemon_.next_event(std::chrono::milliseconds(0))) take(*e);
        if (!stale_) break;
    }
    auto now = your_move();
    News news;
    news.chat = std::exchange(chat_, {});
    news.changed = now != before;
    for (const auto& name : now)
        news.newly_waiting |= std::find(before.begin(), before.end(), name) == before.end();
    return news;
}

void OtherRooms::take(const pb::Event& e) {
    // Events missed while we did not read: which rooms is not said, so all are read again.
    if (e.room_id().empty()) {
        stale_ = true;
        return;
    }
    if (stale_) return; // read_all() will see the room as it is
    if (e.event().has_closed()) {
        rooms_.erase(e.room_id());
        return;
    }
    auto room = rooms_.find(e.room_id());
    // The player's own leave, typed in another halma: the room is no longer theirs.
    if (room != rooms_.end() && e.event().has_left() && room->second.me != 0
        && e.event().left().member() == room->second.me) {
        rooms_.erase(room);
        return;
    }
    if (room == rooms_.end()) {
        read_one(e.room_id());
    } else if (std::uint64_t seq = e.event().seq(); seq == 0 || seq > room->second.seq) {
        // One already in the view read after it came is passed over (seq 0: no event, only
        // news of the line to the host, which says the room's turn as it stands).
        if (e.event().has_chat() && e.room_id() != shown_
            && e.event().chat().member() != room->second.me)
            chat_.push_back(chat_elsewhere_words(word_for(room->second), e.text()));
        room->second.your_turn = e.your_turn();
        room->second.seq = std::max(room->second.seq, seq);
    }
}

bool OtherRooms::read_all() {
    pb::Request sub;
    // Every room where the player sits, also those hosted or joined later; not every room: a
    // host of computers' rooms built each of their events for play while it was open.
    sub.mutable_subscribe()->set_seated(true);
    auto subscribed = daemon_.call(sub);
    if (!subscribed || subscribed->has_error()) return false;
    pb::Request status;
    status.mutable_status();
    auto reply = daemon_.call(status);
    if (!reply || !reply->has_status()) return false;
    rooms_.clear();
    for (const auto* list : { &reply->status().hosted(), &reply->status().joined() })
        for (const auto& summary : *list) read_one(summary.room_id());
    return true;
}

void OtherRooms::read_one(const std::string& room_id) {
    pb::Request r;
    r.mutable_view()->set_room(room_id);
    auto reply = daemon_.call(r);
    // A room gone meanwhile, or not heard from its host yet (UNAVAILABLE): its next event
    // brings it here again.
    if (!reply || !reply->has_view()) return;
    const auto& v = reply->view();
    const auto& s = v.summary();
    // A room this daemon only hosts, its player in no seat (one they left, a computer in it now,
    // or a standing room of computers): not theirs to be sent to. Play went on to such a room
    // when the one shown was left.
    if (s.origin() == pb::ROOM_ORIGIN_HOSTED && v.your_seat() < 0) {
        rooms_.erase(room_id);
        return;
    }
    std::uint32_t me = v.your_seat() >= 0 && v.your_seat() < v.seats_size()
        ? v.seats(v.your_seat()).member()
        : 0;
    rooms_[room_id] = Room { s.name(), s.machine().empty() ? s.address() : s.machine(),
        v.your_turn(), v.seq(), me };
}

std::string OtherRooms::word_for(const std::string& room_id, const std::string& name) const {
    auto it = rooms_.find(room_id);
    return it == rooms_.end() ? name : word_for(it->second);
}

std::string OtherRooms::word_for(const Room& room) const {
    bool shared = std::count_if(rooms_.begin(), rooms_.end(), [&](const auto& entry) {
        return entry.second.name == room.name;
    }) > 1;
    return shared && !room.host.empty() ? room.host + "/" + room.name : room.name;
}

std::vector<std::string> OtherRooms::your_move() const {
    std::vector<std::string> names;
    for (const auto& [id, room] : rooms_)
        if (room.your_turn && id != shown_) names.push_back(word_for(room));
    std::sort(names.begin(), names.end());
    return names;
}

std::string still_in_words(const std::vector<std::string>& rooms) {
    if (rooms.empty()) return "";
    if (rooms.size() == 1)
        return "you are still in room " + rooms[0] + ": halma play -r " + shell_word(rooms[0]);
    std::string names;
    for (const auto& name : rooms) names += (names.empty() ? "" : ", ") + name;
    return "you are still in rooms " + names + ": halma play -r ROOM";
}

std::vector<std::string> OtherRooms::names() const {
    std::vector<std::string> names;
    for (const auto& [id, room] : rooms_)
        if (id != shown_) names.push_back(word_for(room));
    std::sort(names.begin(), names.end());
    return names;
}

std::expected<pb::RoomView, std::string> open_room(
    DaemonConnection& daemon, std::string typed, const std::string& shown) {
    while (!typed.empty() && typed.front() == ' ') typed.erase(0, 1);
    // As the screen quotes it ('Office 4'), or a shell would.
    if (typed.size() >= 2 && (typed.front() == '\'' || typed.front() == '"')
        && typed.back() == typed.front())
        typed = typed.substr(1, typed.size() - 2);
    if (typed.empty()) return std::unexpected("/switch ROOM: which of your rooms to play in");
    pb::Request r;
    r.mutable_view()->set_room(typed);
    auto reply = daemon.call(r);
    if (!reply) return std::unexpected(reply.error().message);
    if (reply->has_error()) return std::unexpected(reply->error().message());
    if (reply->view().summary().room_id() == shown)
        return std::unexpected("room " + reply->view().summary().name() + " is the one shown");
    pb::Request sub;
    sub.mutable_subscribe()->set_room(reply->view().summary().room_id());
    auto subscribed = daemon.call(sub);
    if (!subscribed) return std::unexpected(subscribed.error().message);
    if (subscribed->has_error()) return std::unexpected(subscribed->error().message());
    return reply->view();
}

std::string chat_elsewhere_words(const std::string& room, const std::string& text) {
    return "in room " + room + ", " + text + " (/switch " + room + ")";
}

std::string your_move_elsewhere(const std::vector<std::string>& rooms) {
    if (rooms.empty()) return "";
    if (rooms.size() == 1)
        return "your move in room '" + rooms.front() + "' too: /switch " + rooms.front();
    std::string names;
    for (std::size_t i = 0; i < rooms.size(); ++i)
        names += (i == 0 ? "" : i + 1 == rooms.size() ? " and " : ", ") + ("'" + rooms[i] + "'");
    return "your move in rooms " + names + " too: /switch ROOM";
}

} // namespace halma::cli
