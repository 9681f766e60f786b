// `halma play`'s session: one room on the screen at a time, the local halmad followed through
// its restarts, and what the player types. The screen's layout is play_screen.h's; this is what
// it shows and when. play_session.cpp follows the room and halmad, play_session_draw.cpp draws,
// play_session_input.cpp reads the player's lines.
#pragma once

#include "cli/client/board_render.h"
#include "cli/client/daemon_connection.h"
#include "cli/client/daemon_link.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace halma::cli {

namespace pb = ::halma::v1;

class OtherRooms;
class PromptLine;

struct PlayOptions {
    BoardStyle style;
    bool bell = true;
};

class PlaySession {
public:
    PlaySession(DaemonConnection& daemon, std::string room, PlayOptions options)
        : daemon_(daemon)
        , link_(daemon)
        , room_(std::move(room))
        , options_(options)
        , terminal_(isatty(STDOUT_FILENO)) { }

    // The last words (why the session ended) are printed once the screen is the shell's again:
    // printed before, they were on the play screen's way out, and leaving it put the cursor back
    // above them, so the shell's prompt wrote over them.
    int run();

private:
    enum class Overlay { kNone, kHelp, kHoleKey };
    static constexpr std::size_t kLogKept = 200;
    static constexpr std::size_t kChatShownOnOpening = 3;
    static constexpr const char* kHoleKeyHint = "every hole's name; Enter: back to the board";
    // How long halmad gone is taken for a restart. systemd's Restart=on-failure starts the service
    // again 2 s after it died (RestartSec, systemd/halmad.service.in), and it answers within a few
    // seconds more on a Pi; past this, nothing is bringing it back (it was started by hand), and
    // "halmad is restarting" kept a player waiting for good: the screen says it is not running.
    static constexpr std::chrono::seconds kRestartWait { 10 };

    int run_screen();

    // The player's move in their other rooms: shown under the board (and printed without a
    // terminal), with the bell when a room newly waits for them, as for this room's turn. The
    // others' chat there goes into the log, with the room's name and the way there.
    void follow_other_rooms();

    // Notices our own halmad going and coming back (a restart): a new daemon has no record of
    // our subscription, so subscribe again and show the room as it is now. The exit code when
    // the room is gone for good.
    std::optional<int> follow_daemon();

    // halmad gone past the time a restart takes: said once, with how to start it, as `halma`
    // says it with no halmad. The line is still watched: the room comes back once one runs.
    void say_if_not_running();

    // The daemon that came back refused the room: the exit code when it is gone for good.
    // UNKNOWN_ROOM is final (docs/api.md, "When your own daemon restarts"): the daemon restores
    // its rooms and seats before it answers anyone, and a joined room it has not heard of from
    // its host yet is UNAVAILABLE, asked again in a moment. It says UNKNOWN_ROOM once the host
    // has said it no longer has the room.
    std::optional<int> lost_in_restart(const pb::Reply& reply);

    // Applies what the daemon pushed; the exit code when the room has closed.
    std::optional<int> take_events();

    // The room's first view. A room joined on another daemon that this halmad has not heard from
    // since it started (the laptop restarted while the host was off) has none until its host
    // answers: said once, then waited for (Ctrl-C stops), where play stopped at once.
    bool wait_for_room(int& code);

    // The room left from another halma (`halma leave`), or the seat given up by its host (held
    // in vain while our halmad was out of its reach): the exit code.
    std::optional<int> left_elsewhere(bool timed_out);

    // Our halmad answered UNKNOWN_ROOM for the room's id: it dropped the room without an event
    // (a leave typed elsewhere while its host was out of reach does). The session ends, naming
    // the room as the player knows it: the daemon's message named it by its 32-hex id.
    void room_gone();

    // The room read again once the screen is up: false when it was not (end_ is set when the
    // room is gone). Nothing is printed: stderr would write over the screen.
    bool reread();

    bool refresh(int& code);

    // The room as the daemon shows it now; a turn's time left counts down from here.
    void take_view(const pb::RoomView& view);

    void note(const std::string& line);
    // A room just put on the screen: its recent chat and its last move, into the log.
    void note_opening();

    void redraw();

    // The line to the local halmad, as the status's light shows it.
    pb::ConnectionState daemon_state() const;

    void draw(const pb::RoomView& view);

    std::vector<std::uint8_t> marked() const;

    // A hole holding one of the player's own marbles, typed alone on its turn: where it can go.
    bool pick(const std::string& typed);

    // False when it was not done (the reason is noted on the screen).
    bool act(const std::function<void(pb::ActionRequest*)>& fill);

    // Another of this daemon's rooms on the screen, subscribed to alone as the first one was,
    // its log begun afresh. False when the session is to end (the room shown until now is gone).
    bool switch_room(const std::string& typed);

    // Shows `opened` (a room of this daemon, subscribed to) in place of the room shown, its log
    // begun afresh; false when the session is to end (end_ is set: it is gone already).
    bool show_room(const pb::RoomView& opened);

    // The room shown ended (its host closed it, or it was left from another halma) and the
    // player is in others: the one where it is their move, else the first, is shown, `why` the
    // first line of its log. False when there is none to go to: play ends, as it did always (a
    // family in three rooms was dropped to the shell when one of them closed).
    bool move_on(const std::string& why);

    // A move, unless the room is out of reach now: the host would never hear of it (halmad's
    // own restart is act()'s to say).
    void send_move(const std::string& move);

    // A seated player leaving a game in progress: a computer plays the seat from then on.
    bool leave_needs_asking() const;

    // False when the player is done.
    bool handle(const std::string& raw);

    DaemonConnection& daemon_;
    DaemonLink link_;
    bool resync_ = false; // halmad went: subscribe and read the room again when it is back
    // When the line to halmad dropped, while it is down; and, once it has been down longer than
    // a restart takes (kRestartWait), that it is not running and how to start it.
    std::optional<std::chrono::steady_clock::time_point> lost_at_;
    std::string not_running_;
    std::string room_;
    std::string farewell_; // printed when the session ends
    std::vector<std::string> still_in_; // the player's other rooms, when it ended
    std::optional<int> end_; // the exit code, once the room is gone from halmad
    PlayOptions options_;
    bool terminal_;
    PromptLine* input_ = nullptr;
    OtherRooms* others_ = nullptr; // while the screen is up
    pb::RoomView view_;
    // When the turn of the person to move runs out (a room with a turn limit), by this clock.
    std::optional<std::chrono::steady_clock::time_point> turn_due_;
    // When the hold of each gone player's seat runs out, by seat, by this clock.
    std::map<int, std::chrono::steady_clock::time_point> hold_due_;
    bool was_your_turn_ = false;
    bool leave_asked_ = false; // the last line was /leave mid-game, asked to be typed again
    Overlay overlay_ = Overlay::kNone;
    std::deque<std::string> log_;
    struct Picked {
        std::uint8_t from;
        std::vector<std::uint8_t> targets;
    };
    std::string told_read_only_; // the read-only reason last noted
    std::optional<Picked> picked_; // a marble picked by typing its hole, and where it can go
};

} // namespace halma::cli
