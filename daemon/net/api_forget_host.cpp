// `halma forget-host`: the key pinned for a host is forgotten (its owner made a new one), so the
// next join there pins the key it offers then. The user may name the host as they know it: the
// address the room was joined at, or the machine's name as the LAN lists it ("cat.local"), which
// they saw in `halma rooms` and in the refusal; only the address was taken, and the user had
// never typed nor seen it after joining by room name.
#include "daemon/net/api_service.h"
#include "daemon/net/clock_words.h"

#include <algorithm>
#include <cctype>
#include <spdlog/spdlog.h>

namespace halma::daemon {

namespace pb = wire::pb;

namespace {

std::string lowered(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// Whether `typed` ("cat", "cat.local", "cat.local:7460") names the machine `machine`
// ("cat.local") at `port`.
bool names_machine(const std::string& typed, const std::string& machine, std::uint16_t port) {
    if (machine.empty()) return false;
    std::string host = lowered(typed), want = lowered(machine);
    if (auto colon = host.rfind(':'); colon != std::string::npos) {
        if (host.substr(colon + 1) != std::to_string(port)) return false;
        host.resize(colon);
    }
    if (host.ends_with('.')) host.pop_back();
    return host == want || host + ".local" == want;
}

} // namespace

void ApiService::handle_forget_host(const std::string& client, const pb::Request& request) {
    const std::string& typed = request.forget_host().address();
    // The address as joined; else every address the LAN lists the named machine at.
    std::vector<std::string> addresses { typed };
    for (const LanRoom* room : discovery_.others())
        if (names_machine(typed, room->machine, room->port))
            for (const auto& a : room->addresses) {
                std::string endpoint = a.endpoint(room->port);
                if (std::find(addresses.begin(), addresses.end(), endpoint) == addresses.end())
                    addresses.push_back(endpoint);
            }
    std::vector<std::string> forgotten, retried;
    for (const auto& address : addresses) {
        auto done = peers_.forget_host(address);
        if (!done) {
            reply_error(
                client, request.request_id(), pb::ERROR_CODE_UNAVAILABLE, done.error().message);
            return;
        }
        if (done->pin) forgotten.push_back(address);
        if (done->refused_link) retried.push_back(address);
    }
    if (forgotten.empty() && !retried.empty()) {
        // Nothing pinned, but refused for its key (a friends code that named another): the
        // host is asked for its key again, and that was what the user wanted of this.
        pb::Reply r;
        r.mutable_done()->set_detail("no key was pinned for " + retried.front()
            + "; the host there is asked for its key again");
        reply(client, request.request_id(), r);
        return;
    }
    if (forgotten.empty()) {
        // Asked again (the first answer scrolled away, or a script runs twice): it is done.
        for (const auto& f : forgotten_)
            if (f.typed == typed || f.which == typed) {
                pb::Reply r;
                r.mutable_done()->set_detail("the key of " + f.which + " was forgotten already"
                    + (f.at.empty() ? "" : " (" + f.at + ")")
                    + "; the next join there pins the key it offers then");
                reply(client, request.request_id(), r);
                return;
            }
        reply_error(client, request.request_id(), pb::ERROR_CODE_BAD_REQUEST,
            "no key is pinned for '" + typed
                + "' (give the host's address as it was joined, or its machine's name as "
                  "halma rooms lists it)");
        return;
    }
    std::string which;
    for (const auto& address : forgotten) which += (which.empty() ? "" : ", ") + address;
    spdlog::info("forgot the key pinned for host {}", which);
    if (forgotten_.size() == kForgottenKept) forgotten_.pop_front();
    forgotten_.push_back({ typed, which,
        clock_words(std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::system_clock::now().time_since_epoch())
                        .count()) });
    pb::Reply r;
    r.mutable_done()->set_detail(
        "forgot the key of " + which + "; the next join there pins the key it offers then");
    reply(client, request.request_id(), r);
}

} // namespace halma::daemon
