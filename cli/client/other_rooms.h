// Where it is the player's move in this daemon's rooms other than the one `halma play` shows, and
// what the others say there: a player seated in two rooms was not told the other one waited for
// them, nor that someone asked after them there.
// It follows the events of the rooms where the player sits on a line to halmad of its own
// (play's own subscription is its room's alone, so that other rooms' events stay off its screen):
// each event carries its room's `your_turn`, so a move costs no request; only a room not heard
// of yet has its view read, for its name.
#pragma once

#include "cli/client/daemon_connection.h"
#include "cli/client/daemon_link.h"

#include <chrono>
#include <cstdint>
#include <expected>
#include <map>
#include <string>
#include <vector>

namespace halma::cli {

class OtherRooms {
public:
    // `shown`: the id of the room play shows, which is never counted.
    OtherRooms(DaemonConnection daemon, std::string shown);
    OtherRooms(const OtherRooms&) = delete;
    OtherRooms& operator=(const OtherRooms&) = delete;

    // For zmq::poll beside play's own sockets: readable when there is news.
    zmq::socket_t& socket() { return daemon_.socket(); }
    zmq::socket_t& link_socket() { return link_.socket(); }
    // How long play may sleep before tick() is due: 500 ms while the rooms are still to be
    // read (halmad restarting, or not answering), else for ever (-1).
    std::chrono::milliseconds next_wake() const;
    struct News {
        bool changed = false; // in the rooms where it is the player's move
        bool newly_waiting = false; // a room among them that was not before
        // Chat from others in those rooms since the last tick, a line each for play's log
        // (chat_elsewhere_words()). None from the player (typed in another halma).
        std::vector<std::string> chat;
    };
    // Takes what arrived, without waiting, and reads the rooms again when due.
    News tick();
    void show(const std::string& room_id);
    // A room the player is no longer in (closed, or left from another halma): out of the lines
    // at once ("your move in room 'Office 4' too" stayed after its leave, until a /switch).
    void forget(const std::string& room_id);
    // The names of the rooms where it is the player's move now, the room shown left out.
    std::vector<std::string> your_move() const;
    // The names of every other room the player sits in, the room shown left out.
    std::vector<std::string> names() const;
    // One of the player's rooms as the hints name it (its name, or HOST/NAME when two of them
    // share the name); `name` itself if the room is not known here.
    std::string word_for(const std::string& room_id, const std::string& name) const;

private:
    // One room's event: its turn now, or its view read when it is new here.
    void take(const pb::Event& event);
    // Subscribes to the rooms where the player sits, then reads which rooms there are and whose
    // move it is in each.
    bool read_all();
    // A room not heard of before (hosted or joined meanwhile): its name and turn.
    void read_one(const std::string& room_id);

    struct Room {
        std::string name;
        std::string host; // its machine's mDNS name, else its host's address
        bool your_turn = false;
        std::uint64_t seq = 0; // the last event it includes
        std::uint32_t me = 0; // the player's member number there (0: watching)
    };
    DaemonConnection daemon_;
    DaemonLink link_;
    std::string shown_;
    std::map<std::string, Room> rooms_; // by room id
    // The room as a hint names it: its name, or HOST/NAME when another of the player's rooms
    // has the same name (at another host), which /switch and halma play -r take alike.
    std::string word_for(const Room& room) const;
    bool stale_ = true; // everything to be read again (at the start, after a restart)
    std::vector<std::string> chat_; // taken since the last tick: at most a tick's events
};

// The room `typed` names (as /switch takes it: its name, code or id, in quotes or not), but not
// `shown`, subscribed to alone on `daemon` (play's own line): its view, or why not, for a person.
std::expected<pb::RoomView, std::string> open_room(
    DaemonConnection& daemon, std::string typed, const std::string& shown);

// The player's other rooms when play's room ended, and how to go there: "you are still in
// room lunch: halma play -r lunch"; "in rooms lunch, porch: halma play -r ROOM".
std::string still_in_words(const std::vector<std::string>& rooms);

// Another room's chat line as play's log shows it, with how to go there to answer: "in room
// lunch, bob: anyone for a game? (/switch lunch)". `text` is the event's ("bob: anyone...").
std::string chat_elsewhere_words(const std::string& room, const std::string& text);

// The line halma play shows for them, with how to go there: "your move in room 'Office 4' too:
// /switch Office 4"; empty when there are none.
std::string your_move_elsewhere(const std::vector<std::string>& rooms);

} // namespace halma::cli
