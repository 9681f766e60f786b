// Which room a front end means: a name, a friends code or an id, HOST/NAME (HOST its host's
// address as halma host prints it, or its machine's mDNS name as halma rooms shows it, with or
// without ".local" and the port), or the first 8 characters of an id; with none, the one room
// the player is in. A name two rooms share is answered with what tells them apart.
#include "daemon/net/api_service.h"
#include "daemon/net/clock_words.h"
#include "daemon/room/secrets.h"

#include <ctime>
#include <deque>

namespace halma::daemon {

namespace pb = wire::pb;

namespace {

bool matches(const RoomState& state, std::string_view room) {
    const auto& c = state.config();
    return c.room_id == room || c.name == room
        || (!c.code.empty() && !room.empty() && normalize_code(c.code) == normalize_code(room));
}

// Whether `typed` names the host at `address` (HOST:PORT) on machine `machine` (its mDNS
// name, "ann-laptop.local"; empty if unknown): the address, with or without its port, or the
// machine's name, with or without ".local" and the port, in any case.
bool names_host(std::string_view typed, std::string_view address, std::string_view machine) {
    if (typed.empty()) return false;
    auto colon = address.rfind(':');
    std::string_view port = colon == std::string_view::npos ? "" : address.substr(colon);
    if (typed == address || (!port.empty() && typed == address.substr(0, colon))) return true;
    if (machine.empty()) return false;
    if (!port.empty() && typed.size() > port.size() && typed.ends_with(port))
        typed.remove_suffix(port.size());
    return machine_key(typed) == machine_key(machine);
}

// What became of a room this daemon was in, if it ended without its player leaving: the latest
// of those named `room` (a name, an id or its start), "its host closed it (17:40)", or of any
// when `room` is empty, "room quick: its host closed it (17:40)".
std::string ended_words(const std::deque<PeerLinks::Ended>& ended, std::string_view room) {
    for (auto it = ended.rbegin(); it != ended.rend(); ++it) {
        if (!room.empty() && it->name != room
            && !(room.size() >= 8 && it->room_id.rfind(room, 0) == 0))
            continue;
        std::string clock = clock_words(it->wall_ms);
        return (room.empty() ? "room " + it->name + ": " : std::string()) + it->why
            + (clock.empty() ? "" : " (" + clock + ")");
    }
    return "";
}

} // namespace

std::variant<ApiService::Target, std::string> ApiService::resolve(
    std::string_view room, Among among) {
    // A room's name has no spaces at either end (hosting drops them): "  spaced  " is the room
    // `halma host "  spaced  "` made, where it was "no room '  spaced  '". Spaces alone stay as
    // they are: they name no room, not the only one.
    if (auto first = room.find_first_not_of(' '); first != std::string_view::npos)
        room = room.substr(first, room.find_last_not_of(' ') - first + 1);
    std::vector<Target> all, mine;
    // A named room is looked up in the host's index: a request costs the same beside a thousand
    // idle rooms. Only "the one room I am in" visits them all.
    for (auto* h : room.empty() ? host_.rooms() : host_.matching(room)) {
        Target t { h, nullptr };
        all.push_back(t);
        if (h->local_member != kNoMember) mine.push_back(t);
    }
    for (auto* r :
        among == Among::kHosted ? std::vector<PeerLinks::Replica*> {} : peers_.replicas()) {
        Target t { nullptr, r };
        if (room.empty() || r->room_id == room || (r->state && matches(*r->state, room))
            || (!r->state && !r->name.empty() && r->name == room)) {
            all.push_back(t);
            if (r->me != kNoMember) mine.push_back(t);
        }
    }
    // Not a name, code or whole id: ADDRESS/NAME (as `halma host` prints it), or the start of
    // an id (at least 8 hex digits, as `halma rooms --json` and records show them). Looked for
    // only when nothing else matched: it visits every room.
    if (all.empty() && !room.empty()) {
        // At the first slash, as halma join and the page read it: an address has none, and a
        // room named "a/b" is printed HOST:PORT/a/b.
        auto slash = room.find('/');
        std::string_view address = slash == std::string_view::npos ? "" : room.substr(0, slash);
        std::string_view name = slash == std::string_view::npos ? room : room.substr(slash + 1);
        bool id_prefix = slash == std::string_view::npos && room.size() >= 8
            && room.find_first_not_of("0123456789abcdef") == std::string_view::npos;
        auto named = [&](const RoomState& state, const std::string& at, std::string_view machine) {
            return id_prefix ? state.id().rfind(room, 0) == 0
                             : names_host(address, at, machine) && matches(state, name);
        };
        for (auto* h : host_.rooms())
            if (named(h->authority.state(), host_.address(), discovery_.news().machine))
                all.push_back({ h, nullptr });
        if (among == Among::kAll)
            for (auto* r : peers_.replicas())
                if (r->state && named(*r->state, r->address, r->advertised_machine))
                    all.push_back({ nullptr, r });
    }
    if (all.size() == 1) return all.front();
    if (mine.size() == 1) return mine.front();
    if (all.empty()) {
        std::string ended = ended_words(peers_.ended(), room);
        if (room.empty())
            return "this daemon is in no room: host one or join one"
                + (ended.empty() ? "" : " (" + ended + ")");
        return "no room '" + std::string(room) + "' on this daemon"
            + (ended.empty() ? "" : ": " + ended);
    }
    // Each as HOST/NAME (its machine's name, else its host's address), which tells apart rooms
    // of one name at two hosts; the start of its id tells apart any two.
    std::string names, example;
    for (const auto& t : all) {
        const RoomState* state = t.hosted ? &t.hosted->authority.state()
            : t.replica->state            ? &*t.replica->state
                                          : nullptr;
        std::string id = t.hosted ? state->id() : t.replica->room_id;
        std::string machine = t.hosted ? discovery_.news().machine : t.replica->advertised_machine;
        std::string at = !machine.empty() ? machine
            : t.hosted                    ? host_.address()
                                          : t.replica->address;
        std::string said = state ? at + "/" + state->config().name : id.substr(0, 8);
        if (example.empty() && state) example = said;
        names += (names.empty() ? "" : ", ") + said + " (id " + id.substr(0, 8)
            + (t.hosted ? ", hosted here)" : ", at " + t.replica->address + ")");
    }
    // Eight characters at least: fewer was refused, as "no room", though the message asked
    // for "the start of its id".
    return "several rooms (" + names + "): say which as HOST/NAME"
        + (example.empty() ? std::string() : ", e.g. " + example)
        + ", or by the first 8 characters of its id";
}

} // namespace halma::daemon
