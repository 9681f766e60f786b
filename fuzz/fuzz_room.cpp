#include "fuzz_room.h"

#include <cstdio>
#include <cstdlib>

namespace halma::fuzz {

Now fuzz_now(std::int64_t ms) {
    return Now { std::chrono::steady_clock::time_point {} + std::chrono::hours(1000)
            + std::chrono::milliseconds(ms),
        1'700'000'000'000 + ms };
}

namespace {

RoomAuthority make_room() {
    RoomConfig config;
    config.room_id = kRoomId;
    config.name = "sunday";
    AuthorityOptions options;
    options.bots_available = true;
    RoomAuthority made(config, options, 1);
    auto ann = made.join("ann", "", false, fuzz_now());
    auto bob = made.join("bob", "", false, fuzz_now());
    if (!ann || !bob) {
        std::fprintf(stderr, "fuzz_room: the two players could not join\n");
        std::abort();
    }
    // The same room again with tokens that do not change from run to run.
    auto restored = RoomAuthority::restore(config, options, 1, made.state().log(),
        { { ann->member, std::string(kAnnToken) }, { bob->member, std::string(kBobToken) } },
        fuzz_now());
    if (!restored) {
        std::fprintf(stderr, "fuzz_room: %s\n", restored.error().message.c_str());
        std::abort();
    }
    // restore() counts every remote member as gone; these two are here.
    restored->set_connected(ann->member, true, fuzz_now());
    restored->set_connected(bob->member, true, fuzz_now());
    restored->take_events();
    return std::move(*restored);
}

} // namespace

const RoomAuthority& fuzz_room() {
    static const RoomAuthority room = make_room();
    return room;
}

} // namespace halma::fuzz
